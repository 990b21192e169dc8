import { Client as PgClient, type ClientConfig } from 'pg';
import { logger } from '../core/logger';
import type { Db } from './knex';

/**
 * Waits for a NOTIFY on one channel, by key (the notification's payload), over one LISTEN
 * connection of its own (docs/decisions.md "The booking answers the provider's event"). Built by
 * the API's composition root (api/build-deps.ts), closed on shutdown. The connection is made on
 * the first wait and again on the first wait after it was lost; when it cannot be made, a wait
 * reads once and ends at once (nothing could wake it). No polling, no sleep: a wait ends on its
 * notification or its deadline timer.
 */
export class NoticeWaits {
  private client: PgClient | null = null;
  private listening: Promise<boolean> | null = null;
  private readonly waiters = new Map<string, Set<() => void>>();
  private closed = false;

  constructor(
    private readonly settings: () => ClientConfig,
    readonly channel: string,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  }

  /** A listener on `channel` with the connection settings of `db`'s pool. */
  static forDb(db: Db, channel: string): NoticeWaits {
    return new NoticeWaits(() => ({ ...(db.client.connectionSettings as ClientConfig) }), channel);
  }

  /**
   * `read` once LISTEN is in place (so a notification sent after that read is not missed); when it
   * finds nothing, `read` again after a notification for `key`, unless `ms` pass first (then
   * undefined).
   */
  async until<T>(key: string, ms: number, read: () => Promise<T | undefined>): Promise<T | undefined> {
    if (this.closed) return read();
    let wake = () => {};
    const noticed = new Promise<'noticed'>((resolve) => (wake = () => resolve('noticed')));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), ms)));
    this.add(key, wake);
    try {
      const listening = await Promise.race([this.listen(), deadline]);
      const found = await read();
      if (found !== undefined || listening !== true) return found;
      return (await Promise.race([noticed, deadline])) === 'noticed' ? read() : undefined;
    } finally {
      clearTimeout(timer);
      this.remove(key, wake);
    }
  }

  /** Whether a LISTEN connection is in place now (tests). */
  get connected(): boolean {
    return this.client !== null;
  }

  /** Waits registered now (tests). */
  get waiting(): number {
    let n = 0;
    for (const set of this.waiters.values()) n += set.size;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const set of this.waiters.values()) for (const wake of set) wake();
    const client = this.client;
    this.client = null;
    this.listening = null;
    await client?.end().catch(() => undefined);
  }

  private add(key: string, wake: () => void): void {
    const set = this.waiters.get(key) ?? new Set();
    set.add(wake);
    this.waiters.set(key, set);
  }

  private remove(key: string, wake: () => void): void {
    const set = this.waiters.get(key);
    set?.delete(wake);
    if (set?.size === 0) this.waiters.delete(key);
  }

  /** LISTEN on a connection of its own: made once, made again after it was lost. */
  private listen(): Promise<boolean> {
    this.listening ??= (async () => {
      const client = new PgClient(this.settings());
      const lost = (err?: Error) => {
        if (this.client !== client) return;
        logger.warn({ err, channel: this.channel }, 'LISTEN connection lost; the next wait connects again');
        this.client = null;
        this.listening = null;
        void client.end().catch(() => undefined);
      };
      client.on('error', lost);
      client.on('end', () => lost());
      client.on('notification', (n) => {
        if (n.channel !== this.channel || !n.payload) return;
        for (const wake of this.waiters.get(n.payload) ?? []) wake();
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${this.channel}`);
        if (this.closed) throw new Error('closed');
        this.client = client;
        return true;
      } catch (err) {
        if (!this.closed) logger.warn({ err, channel: this.channel }, 'LISTEN failed; waits end at once');
        this.listening = null;
        await client.end().catch(() => undefined);
        return false;
      }
    })();
    return this.listening;
  }
}
