import type { RateLimiterAbstract } from 'rate-limiter-flexible';

export interface Count {
  /** Requests counted in the current window, this one included. */
  total: number;
  /** When the window ends (epoch ms). */
  resetAt: number;
}

interface Local extends Count {
  syncedAt: number;
  pending: number;
}

/**
 * A fixed-window counter shared by every API process through rate-limiter-flexible's Postgres
 * store. With `syncMs` 0 every request is an atomic increment in Postgres (exact). With
 * `syncMs` > 0 a process adds its increments locally and pushes them in one write per key at
 * most every `syncMs`, reading back the shared total: a hot key then costs one query per
 * interval instead of one per request (and no row-lock queue), and the limit can be overshot
 * by what other processes counted within the last interval.
 */
export class SharedCounter {
  private readonly counts = new Map<string, Local>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: RateLimiterAbstract,
    private readonly syncMs: number,
  ) {}

  async hit(key: string): Promise<Count> {
    const now = Date.now();
    const local = this.counts.get(key);
    if (this.syncMs > 0 && local && now < local.resetAt && now - local.syncedAt < this.syncMs) {
      local.total++;
      local.pending++;
      this.scheduleFlush();
      return { total: local.total, resetAt: local.resetAt };
    }
    const carried = local && now < local.resetAt ? local.pending : 0;
    if (local) local.pending = 0;
    return this.push(key, carried + 1, now);
  }

  private async push(key: string, points: number, now: number): Promise<Count> {
    const res = await this.store.penalty(key, points);
    const count: Local = { total: res.consumedPoints, resetAt: now + Math.max(res.msBeforeNext, 0), syncedAt: now, pending: 0 };
    if (this.syncMs > 0) {
      const current = this.counts.get(key);
      // Increments made locally while this write was in flight stay pending (never dropped).
      if (current && current.pending > 0) {
        count.pending = current.pending;
        count.total += current.pending;
      }
      this.counts.set(key, count);
    }
    return { total: count.total, resetAt: count.resetAt };
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.syncMs);
    this.timer.unref();
  }

  /** Push every key's pending increments; forget windows that ended. */
  async flush(): Promise<void> {
    const now = Date.now();
    const work: Array<Promise<unknown>> = [];
    for (const [key, c] of this.counts) {
      if (now >= c.resetAt) {
        this.counts.delete(key);
      } else if (c.pending > 0) {
        const points = c.pending;
        c.pending = 0;
        work.push(this.push(key, points, now).catch(() => undefined));
      }
    }
    await Promise.all(work);
  }
}
