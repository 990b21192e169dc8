import { jsonb } from '../db/jsonb';
import type { BenchEnv } from './harness';

/**
 * Freshness of a provider calendar's busy time (docs/calendars.md, issue 38 item 4), shared by the
 * Google and Microsoft 365 benches: against a provider's stand-in, the time from a push about a new
 * busy event to its slot being gone from `GET /api/calendar/availability`, and from a push about
 * its deletion to the slot being back. The push goes to the API's hook, which signals the sync
 * workflow; the worker reads the provider's changes and rewrites the host's busy time. Target:
 * p99 ≤ 5 s. With BENCH_PROCESSES=1 the API and the worker run as their own processes, as under
 * `npm run dev`.
 */
export interface FreshnessProvider {
  /** Shown in the figures' lines ("Google", "Microsoft 365"). */
  name: string;
  /** The dashboard's connect route: `/api/v1/<provider>-calendar/authorize`. */
  authorizePath: string;
  /** The connection kind in `calendar_connections`. */
  kind: 'google' | 'microsoft';
  /** The stand-in's account the host signs in as (its `login_as`), and its one calendar's id. */
  owner: string;
  /** Whether the stand-in holds the push channel (Google) or subscription (Graph) of that calendar. */
  pushReady(): boolean;
  /** Add a busy event from `start` to `end` (UTC ISO) and push it; then delete it and push that. */
  putEvent(id: string, start: string, end: string): Promise<void>;
  deleteEvent(id: string): Promise<void>;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A round-robin page of the bench's host, open every hour of every day, with a 30-minute event type. */
async function bookablePage(env: BenchEnv): Promise<{ pageId: string; eventTypeId: string }> {
  await env
    .db('availability_schedules')
    .where({ user_id: env.team.userId })
    .update({
      rules: jsonb([0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '00:00', end: '24:00', enabled: true }))),
      timezone: 'UTC',
    });
  const [page] = await env
    .db('scheduling_pages')
    .insert({ team_id: env.team.teamId, title: 'f', slug: `f-${Date.now()}`, status: 'published', page_type: 'round_robin' })
    .returning('id');
  await env.db('scheduling_page_hosts').insert({ page_id: page.id, user_id: env.team.userId, team_id: env.team.teamId, position: 0 });
  const [et] = await env
    .db('event_types')
    .insert({
      team_id: env.team.teamId,
      scheduling_page_id: page.id,
      title: 'f',
      slug: 'f',
      start_time_increment: 30,
      min_notice_minutes: 0,
    })
    .returning('id');
  return { pageId: page.id as string, eventTypeId: et.id as string };
}

/** Connect as a host does: the dashboard's authorize, the provider's redirect, the callback; then the first sync and the push. */
async function connect(env: BenchEnv, url: string, p: FreshnessProvider): Promise<void> {
  const started = await fetch(`${url}${p.authorizePath}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.team.session}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const authorize = new URL(((await started.json()) as { data: { authorize_url: string } }).data.authorize_url);
  authorize.searchParams.set('login_as', p.owner);
  const back = await fetch((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!);
  if (back.status !== 200) throw new Error(`connect: ${back.status} ${await back.text()}`);
  await until(async () => !!(await env.db('calendar_connections').where({ kind: p.kind, status: 'ok' }).first()), 'the first sync');
  await until(async () => p.pushReady(), 'the push channel');
}

export async function measureFreshness(env: BenchEnv, p: FreshnessProvider, rounds: number): Promise<void> {
  const url = env.workerProcesses > 0 ? env.baseUrl : env.inProcessUrl;
  process.stdout.write(
    env.workerProcesses > 0
      ? `API and worker in their own processes (bin/api.ts, bin/worker.ts under tsx), as npm run dev runs them\n`
      : `API and worker inside the bench process (BENCH_PROCESSES=1: each in its own, as npm run dev)\n`,
  );
  const { pageId, eventTypeId } = await bookablePage(env);
  await connect(env, url, p);

  const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const offered = async (hhmm: string) => {
    const res = await fetch(
      `${url}/api/calendar/availability?user_id=${env.team.userId}&team_id=${env.team.teamId}&date=${day}&event_type_id=${eventTypeId}&scheduling_page_id=${pageId}`,
    );
    const body = (await res.json()) as { available_slots: Array<{ start: string }> };
    return body.available_slots.some((s) => s.start.slice(11, 16) === hhmm);
  };
  const gone: number[] = [];
  const back: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const hh = String(i % 24).padStart(2, '0');
    const hhmm = `${hh}:00`;
    let t = Date.now();
    await p.putEvent(`b${i}`, `${day}T${hhmm}:00Z`, `${day}T${hh}:30:00Z`);
    await until(async () => !(await offered(hhmm)), `slot ${hhmm} gone`);
    gone.push(Date.now() - t);
    t = Date.now();
    await p.deleteEvent(`b${i}`);
    await until(() => offered(hhmm), `slot ${hhmm} back`);
    back.push(Date.now() - t);
  }
  const line = (name: string, xs: number[]) =>
    process.stdout.write(
      `${name.padEnd(58)} p50 ${quantile(xs, 0.5)} ms  p99 ${quantile(xs, 0.99)} ms  max ${Math.max(...xs)} ms  (${xs.length} rounds; target p99 ≤ 5000 ms)\n`,
    );
  line(`${p.name}: push of a new busy event → slot gone`, gone);
  line(`${p.name}: push of its deletion → slot back`, back);
}
