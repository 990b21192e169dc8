// Workflows the benches use as baselines (bundled for a bench-only worker, never by the service).
import { upsertSearchAttributes } from '@temporalio/workflow';
import { SA } from '../temporal/search-attributes';

/** The cheapest workflow there is: one workflow task, no activity. */
export async function emptyWorkflow(): Promise<number> {
  return 1;
}

/** As cheap, plus the one search-attribute upsert an enrollment makes when it ends (its status). */
export async function emptyWorkflowWithUpsert(): Promise<number> {
  upsertSearchAttributes([{ key: SA.EnrollmentStatus, value: 'completed' }]);
  return 1;
}
