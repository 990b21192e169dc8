import { jsonb } from '../db/jsonb';
import { startGoogleStandin, type GoogleStandin } from '../test/helpers/google-standin';
import type { BenchEnv } from './harness';

/**
 * Google Calendar freshness (docs/calendars.md "Google Calendar", issue 38): against the stand-in of
 * Google, the time from a push about a new busy event to its slot being gone from
 * `GET /api/calendar/availability`, and from a push about its deletion to the slot being back. The
 * push goes to the API's hook, which signals the sync workflow; the worker reads events.list with
 * the sync token and rewrites the host's busy time. Target: p99 ≤ 5 s. With BENCH_PROCESSES=1 the
 * API and the worker run as their own processes, as under `npm run dev`.
 */
const ROUNDS = Number(process.env.BENCH_GOOGLE_ROUNDS ?? 40);
const OWNER = 'bench@gmail.example';
let g: GoogleStandin;

/** Settings for this bench's environment (bench/index.ts): Google's URLs point at the stand-in. */
export async function benchEnv(): Promise<Record<string, string>> {
  g = await startGoogleStandin({ clientId: 'bench-client', clientSecret: 'bench-secret' });
  return g.env();
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

export default async function googleCalendarBench(env: BenchEnv): Promise<void> {
  try {
    // BENCH_PROCESSES=1: the API and the worker each in its own process, as `npm run dev` runs them
    // (the push reaches bin/api.ts, bin/worker.ts syncs); else the worker and this API run in the bench process.
    const url = env.workerProcesses > 0 ? env.baseUrl : env.inProcessUrl;
    process.stdout.write(
      env.workerProcesses > 0
        ? `API and worker in their own processes (bin/api.ts, bin/worker.ts under tsx), as npm run dev runs them\n`
        : `API and worker inside the bench process (BENCH_PROCESSES=1: each in its own, as npm run dev)\n`,
    );
    g.addCalendar(OWNER, { id: OWNER, primary: true });
    await env
      .db('availability_schedules')
      .where({ user_id: env.team.userId })
      .update({
        rules: jsonb([0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '00:00', end: '24:00', enabled: true }))),
        timezone: 'UTC',
      });
    const [page] = await env
      .db('scheduling_pages')
      .insert({ team_id: env.team.teamId, title: 'g', slug: `g-${Date.now()}`, status: 'published', page_type: 'round_robin' })
      .returning('id');
    await env.db('scheduling_page_hosts').insert({ page_id: page.id, user_id: env.team.userId, team_id: env.team.teamId, position: 0 });
    const [et] = await env
      .db('event_types')
      .insert({
        team_id: env.team.teamId,
        scheduling_page_id: page.id,
        title: 'g',
        slug: 'g',
        start_time_increment: 30,
        min_notice_minutes: 0,
      })
      .returning('id');

    // Connect as a host does: the dashboard's authorize, Google's redirect, the callback.
    const started = await fetch(`${url}/api/v1/google-calendar/authorize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.team.session}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const authorize = new URL(((await started.json()) as { data: { authorize_url: string } }).data.authorize_url);
    authorize.searchParams.set('login_as', OWNER);
    const back = await fetch((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!);
    if (back.status !== 200) throw new Error(`connect: ${back.status} ${await back.text()}`);
    await until(async () => !!(await env.db('calendar_connections').where({ kind: 'google', status: 'ok' }).first()), 'the first sync');
    await until(async () => g.channels.size === 1, 'the push channel');

    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const offered = async (hhmm: string) => {
      const res = await fetch(
        `${url}/api/calendar/availability?user_id=${env.team.userId}&team_id=${env.team.teamId}&date=${day}&event_type_id=${et.id}&scheduling_page_id=${page.id}`,
      );
      const body = (await res.json()) as { available_slots: Array<{ start: string }> };
      return body.available_slots.some((s) => s.start.slice(11, 16) === hhmm);
    };
    const gone: number[] = [];
    const back2: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const hh = String(i % 24).padStart(2, '0');
      const hhmm = `${hh}:00`;
      let t = Date.now();
      await g.putEvent(OWNER, { id: `b${i}`, start: { dateTime: `${day}T${hhmm}:00Z` }, end: { dateTime: `${day}T${hh}:30:00Z` } });
      await until(async () => !(await offered(hhmm)), `slot ${hhmm} gone`);
      gone.push(Date.now() - t);
      t = Date.now();
      await g.deleteEvent(OWNER, `b${i}`);
      await until(() => offered(hhmm), `slot ${hhmm} back`);
      back2.push(Date.now() - t);
    }
    const line = (name: string, xs: number[]) =>
      process.stdout.write(
        `${name.padEnd(44)} p50 ${quantile(xs, 0.5)} ms  p99 ${quantile(xs, 0.99)} ms  max ${Math.max(...xs)} ms  (${xs.length} rounds; target p99 ≤ 5000 ms)\n`,
      );
    line('push of a new busy event → slot gone', gone);
    line('push of its deletion → slot back', back2);
  } finally {
    await g.close();
  }
}
