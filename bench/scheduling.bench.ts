import { jsonb } from '../db/jsonb';
import autocannon from 'autocannon';
import { addMember } from '../services/team';
import { computeSlots, type HostSchedule, type SlotQuery } from '../domain/slots';
import { baseline, load, printResult, type BenchEnv } from './harness';
import { benchProcesses, cpuPer, cpuSeconds } from './cpu';

const DAY = 86_400_000;
/** Concurrent clients, as issue 13 states the booking targets. */
const CLIENTS = 16;
/** load()'s default duration. */
const AV_SECONDS = 8;
const MIN = 60_000;
const ALL_WEEK = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '00:00', end: '24:00', enabled: true }));

function host(id: string, timezone: string, busyCount: number, from: number, seed: number): HostSchedule {
  let x = seed;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const busy = Array.from({ length: busyCount }, () => {
    const start = from + Math.floor(rnd() * 14 * 96) * 15 * MIN;
    return { start, end: start + (1 + Math.floor(rnd() * 4)) * 15 * MIN };
  });
  const rules = [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00', enabled: true }));
  return { hostId: id, timezone, rules, overrides: [{ date: '2031-03-12', is_unavailable: true }], busy };
}

function median(fn: () => void, runs: number): number {
  for (let i = 0; i < 5; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

function engineBench(): void {
  const now = Date.parse('2031-03-03T00:00:00Z');
  const q: SlotQuery = {
    rangeStart: now,
    rangeEnd: now + 14 * DAY,
    now,
    durationMinutes: 30,
    incrementMinutes: 15,
    bufferBeforeMinutes: 10,
    bufferAfterMinutes: 10,
    minNoticeMinutes: 60,
    maxBookingDays: 14,
    mode: 'one_on_one',
  };
  const one = [host('h0', 'America/New_York', 500, now, 1)];
  const m1 = median(() => computeSlots(one, q), 200);
  const twenty = Array.from({ length: 20 }, (_, i) => host(`h${i}`, i % 2 ? 'Europe/London' : 'America/New_York', 500, now, i + 1));
  const m20 = median(() => computeSlots(twenty, { ...q, mode: 'round_robin' }), 50);
  process.stdout.write(`slot engine, 14 days, 1 host, 500 busy intervals      median ${m1.toFixed(3)} ms/query (target < 2 ms)\n`);
  process.stdout.write(`slot engine, 14 days, round-robin 20 hosts × 500 busy  median ${m20.toFixed(3)} ms/query (target < 20 ms)\n`);
}

/** Availability and booking over HTTP, against the API process (its public per-IP limit is raised for the bench, or the limit would be measured instead). */
export default async function run(env: BenchEnv): Promise<void> {
  engineBench();
  const { db } = env;
  const hosts = [env.team.userId];
  for (let i = 0; i < 19; i++)
    hosts.push(
      (
        await addMember(
          { db, config: env.deps.config },
          { teamId: env.team.teamId, values: { email: `bench-host-${i}@example.com`, role: 'member' } },
        )
      ).id,
    );
  await db('availability_schedules')
    .whereIn('user_id', hosts)
    .update({ rules: jsonb(ALL_WEEK) });
  const [page] = await db('scheduling_pages')
    .insert({ team_id: env.team.teamId, title: 'Bench', slug: `bench-${Date.now()}`, status: 'published', page_type: 'round_robin' })
    .returning('id');
  await db('scheduling_page_hosts').insert(
    hosts.map((user_id, position) => ({ page_id: page.id, user_id, team_id: env.team.teamId, position })),
  );
  const [et] = await db('event_types')
    .insert({
      team_id: env.team.teamId,
      scheduling_page_id: page.id,
      title: 'Bench',
      slug: 'bench',
      start_time_increment: 30,
      min_notice_minutes: 0,
    })
    .returning('id');

  // A one-on-one page of the first host, for the one-on-one booking.
  const [solo] = await db('scheduling_pages')
    .insert({ team_id: env.team.teamId, title: 'Solo', slug: `solo-${Date.now()}`, status: 'published', page_type: 'one_on_one' })
    .returning('id');
  await db('scheduling_page_hosts').insert({ page_id: solo.id, user_id: env.team.userId, team_id: env.team.teamId, position: 0 });
  const [soloEt] = await db('event_types')
    .insert({
      team_id: env.team.teamId,
      scheduling_page_id: solo.id,
      title: 'Solo',
      slug: 'solo',
      start_time_increment: 30,
      min_notice_minutes: 0,
      max_booking_days: 365,
    })
    .returning('id');

  const url = env.baseUrl; // the API in its own process; public limits are raised for the bench
  const base = await baseline(env);
  printResult('baseline: bare Koa + select 1', base);
  const date = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);
  const qs = new URLSearchParams({
    user_id: env.team.userId,
    team_id: env.team.teamId,
    date,
    event_type_id: et.id,
    scheduling_page_id: page.id,
  });
  // CPU seconds by process (bench/cpu.ts): where a request's time goes on the machine.
  const cpu = env.temporal
    ? benchProcesses({
        apiPids: env.pids.api,
        workerPids: env.pids.workers,
        temporalPort: Number(env.temporal.env.address.split(':').pop()),
        pgPort: Number(new URL(env.databaseUrl).port),
      })
    : null;
  const a0 = cpu && cpuSeconds(cpu);
  const av = await load({ url: `${url}/api/calendar/availability?${qs}`, connections: CLIENTS });
  printResult(`GET /api/calendar/availability (round-robin, 20 hosts, ${CLIENTS} clients)`, av, base);
  if (cpu && a0) process.stdout.write(`  CPU per request: ${cpuPer(a0, cpuSeconds(cpu), av.rps * AV_SECONDS)}\n`);

  // Bookings, 16 clients, each request a new attendee; starts spread over distinct 30-minute slots
  // from tomorrow on, so a 409 means a real conflict, not a slot used up by the bench itself.
  const confirmations = (prefix: string) => env.smtp.arrivals.filter((a) => a.to.startsWith(prefix)).length;
  const book = async (
    label: string,
    prefix: string,
    eventTypeId: string,
    pageId: string,
    slots: number,
    dayOffset: number,
    workflows = true,
  ) => {
    let n = 0;
    const first = Math.ceil((Date.now() + dayOffset * DAY) / (30 * MIN)) * 30 * MIN;
    const c0 = cpu && cpuSeconds(cpu);
    const r = await autocannon({
      url: `${url}/api/calendar/book`,
      method: 'POST',
      connections: CLIENTS,
      duration: 8,
      headers: { 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (req: autocannon.Request) => {
            const i = n++;
            const start = first + (i % slots) * 30 * MIN;
            return {
              ...req,
              body: JSON.stringify({
                user_id: env.team.userId,
                team_id: env.team.teamId,
                event_type_id: eventTypeId,
                start: new Date(start).toISOString(),
                end: new Date(start + 30 * MIN).toISOString(),
                attendee_email: `${prefix}${i}@example.com`,
              }),
            };
          },
        },
      ],
    } as autocannon.Options);
    const c1 = cpu && cpuSeconds(cpu);
    printResult(
      `POST /api/calendar/book (${label}, ${CLIENTS} clients)`,
      { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx },
      base,
    );
    const made = await db('meetings').where({ scheduling_page_id: pageId }).count<{ c: number }[]>({ c: '*' }).first();
    process.stdout.write(`  bookings made: ${made?.c}, 2xx ${r['2xx']}, non-2xx ${r.non2xx}\n`);
    if (!cpu || !c0 || !c1) return;
    process.stdout.write(`  CPU per booking during the requests: ${cpuPer(c0, c1, r['2xx'])}\n`);
    if (!workflows || (!env.relay && env.workerProcesses === 0)) return;
    // Every booking's workflow sends the attendee a confirmation: wait for all of them, so the CPU
    // of the workflows that ran after the requests is counted too.
    const t0 = Date.now();
    while (confirmations(prefix) < r['2xx'] && Date.now() - t0 < 300_000) await new Promise((res) => setTimeout(res, 200));
    process.stdout.write(
      `  confirmations: ${confirmations(prefix)} of ${r['2xx']}, the last ${((Date.now() - t0) / 1000).toFixed(1)} s after the requests; ` +
        `CPU per booking, workflow included: ${cpuPer(c0, cpuSeconds(cpu), r['2xx'])}\n`,
    );
  };
  // one-on-one: every request its own slot (10,000 slots from 8 days out cover any rate here)
  await book('one-on-one', 'on', soloEt.id, solo.id, 10_000, 8);
  // round robin: 500 slots, each taking one booking per host (20)
  await book('round-robin, 20 hosts', 'ro', et.id, page.id, 500, 1);
  // The API's own path: the same one-on-one bookings with the outbox relay paused, so no workflow
  // starts or runs during the requests (their outbox rows wait, then start when it resumes).
  if (env.relay) {
    await env.relay.pause();
    await book('one-on-one, workflow starts paused', 'op', soloEt.id, solo.id, 10_000, 60, false);
    await env.relay.resume();
  } else process.stdout.write('  (the relay-paused phase needs the in-process worker: not run with BENCH_PROCESSES)\n');
}
