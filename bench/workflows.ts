// Workflows the benches use as baselines (bundled for a bench-only worker, never by the service).

/** The cheapest workflow there is: one workflow task, no activity. */
export async function emptyWorkflow(): Promise<number> {
  return 1;
}
