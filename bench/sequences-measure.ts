import os from 'node:os';
import { temporal } from '@temporalio/proto';
import type { Db } from '../db/knex';
import type { BenchEnv } from './harness';

/** What the sequences bench measures besides time: SQL statements, history events, outbox starts. */

export const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** Arrivals per 10 s window from t0, e.g. "0-10s 412, 10-20s 655". */
export function timeline(arrivals: number[], t0: number): string {
  const buckets = new Map<number, number>();
  for (const a of arrivals) {
    const b = Math.floor((a - t0) / 10_000);
    buckets.set(b, (buckets.get(b) ?? 0) + 1);
  }
  return [...buckets.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([b, n]) => `${b * 10}-${b * 10 + 10}s ${n}`)
    .join(', ');
}

/** Counts SQL statements on a knex instance, grouped by their normalised text. */
export function statementCounter(db: Db) {
  let counts = new Map<string, number>();
  db.on('query', (q: { sql: string }) => {
    const key = q.sql
      .replace(/\s+/g, ' ')
      .replace(/\$\d+/g, '?')
      .replace(/\(\?(, \?)+\)/g, '(…)')
      .slice(0, 110);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  return {
    reset: () => void (counts = new Map()),
    snapshot: () => new Map(counts),
  };
}

export function printStatements(title: string, counts: Map<string, number>, per: number): void {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(`  ${title}: ${(total / per).toFixed(2)} (${total} in all)\n`);
  for (const [sql, n] of [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12))
    process.stdout.write(`    ${(n / per).toFixed(2).padStart(6)}  ${sql}\n`);
}

const EVENT_NAMES = temporal.api.enums.v1.EventType;
export const eventName = (t: number | null | undefined) =>
  String(EVENT_NAMES[t ?? 0])
    .replace(/^EVENT_TYPE_/, '')
    .toLowerCase()
    .replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());

/** Events per enrollment, averaged over a sample of histories. */
export async function historyCounts(env: BenchEnv, enrollmentIds: string[], sampleSize: number): Promise<void> {
  const step = Math.max(1, Math.floor(enrollmentIds.length / sampleSize));
  const sample = enrollmentIds.filter((_, i) => i % step === 0).slice(0, sampleSize);
  const counts = new Map<string, number>();
  let events = 0;
  for (const id of sample) {
    const history = await env.temporal!.client.workflow.getHandle(`enrollment-${id}`).fetchHistory();
    for (const e of history.events ?? []) {
      const name = eventName(e.eventType as number);
      counts.set(name, (counts.get(name) ?? 0) + 1);
      events++;
    }
  }
  const per = (name: string) => ((counts.get(name) ?? 0) / sample.length).toFixed(2);
  process.stdout.write(
    `  per enrollment (${sample.length} histories): ${(events / sample.length).toFixed(2)} events; workflow tasks ${per('WorkflowTaskCompleted')}, ` +
      `local activities ${per('MarkerRecorded')}, activities ${per('ActivityTaskScheduled')}, timers ${per('TimerStarted')}, ` +
      `signals ${per('WorkflowExecutionSignaled')}, search-attribute upserts ${per('UpsertWorkflowSearchAttributes')}\n`,
  );
  process.stdout.write(
    `    ${[...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([n, c]) => `${n} ${(c / sample.length).toFixed(2)}`)
      .join(', ')}\n`,
  );
}

export async function outboxFigures(env: BenchEnv, sequenceId: string, since: Date) {
  const r = await env
    .db('outbox')
    .where({ workflow_type: 'sequenceEnrollmentWorkflow' })
    .where('created_at', '>=', since)
    .first<{ started: string; spread_s: string; retried: string }>(
      env.db.raw('count(*) FILTER (WHERE started_at IS NOT NULL) AS started'),
      env.db.raw('extract(epoch from max(started_at) - min(created_at)) AS spread_s'),
      env.db.raw('count(*) FILTER (WHERE attempts > 0) AS retried'),
    );
  const sends: Array<{ status: string; n: string }> = await env
    .db('sequence_sends')
    .where({ sequence_id: sequenceId })
    .groupBy('status')
    .select('status', env.db.raw('count(*) AS n'));
  if (!r) return;
  const spread = Number(r.spread_s);
  process.stdout.write(
    `  workflows started: ${r.started} in ${spread.toFixed(1)} s from the first outbox row (${(Number(r.started) / spread).toFixed(0)} starts/s, ` +
      `${r.retried} rows started again after an error); sends by status: ${sends.map((s) => `${s.status} ${s.n}`).join(', ')}\n`,
  );
}
