/**
 * Collects the ids of rows finished without a workflow and marks them in one UPDATE per batch
 * (at most every `delayMs`), fenced by the lease number: a row leased again since is left alone.
 * A batch lost in a crash only means those rows are handled again after their lease (and find
 * nothing left to do).
 */
export class DoneMarker {
  private pending: Array<[number, number]> = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (pairs: Array<[number, number]>) => Promise<void>,
    private readonly delayMs = 20,
    private readonly batch = 200,
  ) {}

  add(id: number, lease: number): void {
    this.pending.push([id, lease]);
    if (this.pending.length >= this.batch)
      void this.flush(); // errors are handled in flush
    else this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pairs = this.pending;
    this.pending = [];
    if (pairs.length > 0) this.flushing = this.flushing.then(() => this.write(pairs));
    return this.flushing;
  }
}
