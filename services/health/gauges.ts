import { scrapedGauge } from '../../core/metrics';
import type { ServiceDeps } from '../deps';

/** A scrape reads the database at most this long (ms); past it the gauges keep no value this time. */
const SCRAPE_BUDGET_MS = 2000;
/** Mail and calendar figures cover this window, so the gauges move with what happens now. */
const WINDOW = '1 hour';

type Rows = Array<{ labels: Record<string, string>; value: number }>;

/**
 * Gauges read from the database when Prometheus scrapes: the outbox's depth and age, webhook
 * deliveries waiting, outbound mail by class, calendar connections by sync outcome and the
 * stalest sync. Registered once, by the worker (one process per deployment answers for the
 * shared tables; several workers give the same figures). Every label is a closed set.
 */
export function registerDatabaseGauges(deps: Pick<ServiceDeps, 'db'>, _input: Record<string, never>): void {
  const { db } = deps;
  const one =
    (sql: string, label = 'value'): (() => Promise<Rows>) =>
    async () =>
      (await inTransaction(db, sql)).map((r) => ({ labels: {}, value: Number(r[label] ?? 0) }));

  scrapedGauge(
    'fss_outbox_pending_rows',
    'Outbox rows whose workflow is not started yet',
    [],
    one(`select count(*) as value from outbox where started_at is null`),
  );
  scrapedGauge(
    'fss_outbox_oldest_pending_age_seconds',
    'Age of the oldest outbox row not started yet (0 when none)',
    [],
    one(`select coalesce(extract(epoch from now() - min(created_at)), 0) as value from outbox where started_at is null`),
  );
  scrapedGauge(
    'fss_webhook_deliveries_pending',
    'Webhook deliveries not yet succeeded nor given up',
    [],
    one(`select count(*) as value from webhook_deliveries where status = 'pending'`),
  );
  scrapedGauge(
    'fss_webhook_delivery_lag_seconds',
    'Age of the oldest webhook delivery still pending (the delivery lag; 0 when none)',
    [],
    one(`select coalesce(extract(epoch from now() - min(created_at)), 0) as value from webhook_deliveries where status = 'pending'`),
  );
  scrapedGauge(
    'fss_mail_messages_last_hour',
    `Outbound mail in the last ${WINDOW}, by class: sent, hard_bounce, soft_bounce, block, complaint`,
    ['class'],
    async () => {
      const [r] = await inTransaction(
        db,
        `select count(*) filter (where accepted_at is not null) as sent,
              count(*) filter (where bounced_at is not null and bounce_type = 'hard') as hard_bounce,
              count(*) filter (where bounced_at is not null and bounce_type is distinct from 'hard' and bounce_type is distinct from 'block') as soft_bounce,
              count(*) filter (where bounced_at is not null and bounce_type = 'block') as block,
              count(*) filter (where complained_at is not null) as complaint
         from outbound_emails where created_at > now() - interval '${WINDOW}'`,
      );
      return ['sent', 'hard_bounce', 'soft_bounce', 'block', 'complaint'].map((c) => ({
        labels: { class: c },
        value: Number(r?.[c] ?? 0),
      }));
    },
  );
  scrapedGauge(
    'fss_calendar_connections',
    'Calendar connections by the outcome of their last sync (ok, syncing, error, stale)',
    ['outcome'],
    async () =>
      (await inTransaction(db, `select status, count(*) as n from calendar_connections group by status`)).map((r) => ({
        labels: { outcome: String(r.status) },
        value: Number(r.n),
      })),
  );
  scrapedGauge(
    'fss_calendar_oldest_sync_age_seconds',
    'Seconds since the least recently synced calendar connection last synced (its staleness; 0 when none)',
    [],
    one(`select coalesce(extract(epoch from now() - min(coalesce(last_synced_at, created_at))), 0) as value from calendar_connections`),
  );
}

/** One read under a statement timeout, so a stalled database cannot hold a scrape (and its connection) for long. */
async function inTransaction(db: Pick<ServiceDeps, 'db'>['db'], sql: string): Promise<Array<Record<string, unknown>>> {
  return db.transaction(async (trx) => {
    await trx.raw(`set local statement_timeout = ${SCRAPE_BUDGET_MS}`);
    return (await trx.raw(sql)).rows as Array<Record<string, unknown>>;
  });
}
