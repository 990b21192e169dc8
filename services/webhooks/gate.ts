import { E_TIMEOUT, Semaphore, withTimeout } from 'async-mutex';

/**
 * The worker's own share of the per-endpoint cap: attempts to one subscription queue here (FIFO,
 * in memory) for at most `waitMs`, so that a burst waits in line instead of polling Postgres for a
 * slot. The Postgres lease (semaphore.ts) still enforces the cap across worker processes.
 */
export class EndpointGate {
  private readonly gates = new Map<string, { sem: Semaphore; users: number }>();

  constructor(
    private readonly capacity: number,
    private readonly waitMs: number,
  ) {}

  /** Run `fn` holding one of the endpoint's local slots; `null` when none came free within `waitMs`. */
  async run<T>(key: string, fn: () => Promise<T>, waitMs = this.waitMs): Promise<T | null> {
    let gate = this.gates.get(key);
    if (!gate) {
      gate = { sem: new Semaphore(this.capacity), users: 0 };
      this.gates.set(key, gate);
    }
    gate.users += 1;
    try {
      let release: () => void;
      try {
        // A waiter that timed out keeps its place and gives the slot straight back when reached.
        [, release] = await withTimeout(gate.sem, waitMs).acquire();
      } catch (err) {
        if (err === E_TIMEOUT) return null;
        throw err;
      }
      try {
        return await fn();
      } finally {
        release();
      }
    } finally {
      gate.users -= 1;
      if (gate.users === 0) this.gates.delete(key); // idle endpoints cost no memory
    }
  }
}
