import { jsonb } from '../db/jsonb';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { uuid } from '../core/crypto';
import { calendarSecretBox, sealCredentials, type CalendarCredentials } from '../services/calendars/secrets';
import { syncConnection } from '../services/calendars/sync';
import { addMember } from '../services/team';
import { startRadicale } from '../test/helpers/radicale';
import { corpusBench } from './calendar-corpus';
import { load, printResult, type BenchEnv, type LoadResult } from './harness';

/**
 * Host calendars (docs/calendars.md "Speed"):
 * 1. Round-robin availability across 20 hosts, each with 500 busy intervals from a connected
 *    calendar (a fifth of them occurrences of recurring events), against the same page shape whose
 *    20 hosts have no calendar, in the same run: target within 1.2× (the cache is read with one
 *    index probe per host; no remote call).
 * 0. Expanding the real-world corpus, objects/s, next to the reference expander's time (calendar-corpus.ts).
 * 2. Syncing a 2,000-event calendar (a fifth recurring) from Radicale: the first sync, a sync with
 *    nothing changed, an incremental one after a few edits, and the local re-expansion when the
 *    window moves.
 */

const DAY = 86_400_000;
const MIN = 60_000;
const ALL_WEEK = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '00:00', end: '24:00', enabled: true }));
const utc = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

function rng(seed: number) {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** 400 single events and 20 daily series of 5 (100 occurrences): 500 busy intervals in the 14 days from `from`. */
function busyFeed(seed: number, from: number): string {
  const rnd = rng(seed);
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//fss bench//EN'];
  const stamp = `DTSTAMP:${utc(Date.now())}`;
  for (let i = 0; i < 420; i++) {
    const start = from + Math.floor(rnd() * 13 * 96) * 15 * MIN;
    const end = start + (1 + Math.floor(rnd() * 4)) * 15 * MIN;
    lines.push('BEGIN:VEVENT', `UID:bench-${seed}-${i}`, stamp, `DTSTART:${utc(start)}`, `DTEND:${utc(end)}`);
    if (i >= 400) lines.push('RRULE:FREQ=DAILY;COUNT=5');
    lines.push('SUMMARY:Busy', 'END:VEVENT');
  }
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

async function insertConnection(
  env: BenchEnv,
  userId: string,
  creds: Exclude<CalendarCredentials, { kind: 'google' | 'microsoft' }>,
  name: string,
): Promise<string> {
  const id = uuid();
  await env.db('calendar_connections').insert({
    id,
    team_id: env.team.teamId,
    user_id: userId,
    kind: creds.kind,
    name,
    display_url: new URL(creds.url).origin,
    credentials_enc: sealCredentials(calendarSecretBox(env.deps.config), id, creds),
  });
  return id;
}

async function roundRobinPage(env: BenchEnv, hosts: string[], label: string): Promise<{ pageId: string; eventTypeId: string }> {
  const [page] = await env
    .db('scheduling_pages')
    .insert({ team_id: env.team.teamId, title: label, slug: `${label}-${Date.now()}`, status: 'published', page_type: 'round_robin' })
    .returning('id');
  await env
    .db('scheduling_page_hosts')
    .insert(hosts.map((user_id, position) => ({ page_id: page.id, user_id, team_id: env.team.teamId, position })));
  const [et] = await env
    .db('event_types')
    .insert({
      team_id: env.team.teamId,
      scheduling_page_id: page.id,
      title: label,
      slug: label,
      start_time_increment: 30,
      min_notice_minutes: 0,
    })
    .returning('id');
  return { pageId: page.id, eventTypeId: et.id };
}

const avg = (rs: LoadResult[]): LoadResult => ({
  rps: rs.reduce((s, r) => s + r.rps, 0) / rs.length,
  p50: rs.reduce((s, r) => s + r.p50, 0) / rs.length,
  p99: rs.reduce((s, r) => s + r.p99, 0) / rs.length,
  errors: rs.reduce((s, r) => s + r.errors, 0),
  non2xx: rs.reduce((s, r) => s + r.non2xx, 0),
});

async function availabilityBench(env: BenchEnv): Promise<void> {
  const { db } = env;
  const hostsOf = async (label: string) => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++)
      ids.push(
        (
          await addMember(
            { db, config: env.deps.config },
            { teamId: env.team.teamId, values: { email: `${label}-${i}@example.com`, role: 'member' } },
          )
        ).id,
      );
    await db('availability_schedules')
      .whereIn('user_id', ids)
      .update({ rules: jsonb(ALL_WEEK), timezone: i18nZone(label) });
    return ids;
  };
  const plain = await hostsOf('plain');
  const connected = await hostsOf('connected');
  const pagePlain = await roundRobinPage(env, plain, 'plain');
  const pageConnected = await roundRobinPage(env, connected, 'connected');

  // One local feed per connected host, synced through the real sync path.
  const from = Math.floor(Date.now() / DAY) * DAY + DAY;
  const feeds = new Map(connected.map((id, i) => [id, busyFeed(i + 1, from)]));
  const server = http.createServer((req, res) => {
    const body = feeds.get((req.url ?? '').slice(1).replace(/\.ics$/, ''));
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/calendar' });
    res.end(body ?? '');
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const t0 = process.hrtime.bigint();
  let busy = 0;
  for (const id of connected) {
    const conn = await insertConnection(env, id, { kind: 'ics_feed', url: `${base}/${id}.ics` }, 'bench feed');
    const r = await syncConnection({ db, config: env.deps.config }, { connectionId: conn });
    if (r.outcome !== 'ok') throw new Error(`feed sync failed: ${r.message}`);
    busy += Number((await db('calendar_connections').where({ id: conn }).first('busy_count'))?.busy_count);
  }
  const syncMs = Number(process.hrtime.bigint() - t0) / 1e6;
  await new Promise((r) => server.close(r));
  process.stdout.write(
    `20 feeds synced (420 events each, 20 of them daily series of 5): ${busy} busy intervals cached, ${(syncMs / 20).toFixed(0)} ms a feed\n`,
  );

  const date = new Date(from + 2 * DAY).toISOString().slice(0, 10);
  const urlA = (p: { pageId: string; eventTypeId: string }) =>
    `${env.baseUrl}/api/calendar/availability?${new URLSearchParams({ user_id: env.team.userId, team_id: env.team.teamId, date, event_type_id: p.eventTypeId, scheduling_page_id: p.pageId })}`;
  const urlB = (p: { eventTypeId: string }) =>
    `${env.baseUrl}/api/calendar/availability?${new URLSearchParams({
      event_type_id: p.eventTypeId,
      start_date: new Date(from).toISOString().slice(0, 10),
      end_date: new Date(from + 12 * DAY).toISOString().slice(0, 10),
      timezone: 'UTC',
    })}`;
  for (const [label, url] of [
    ['one day (variant A)', urlA],
    ['13 days (variant B)', urlB],
  ] as const) {
    // Interleaved rounds, so a slow moment of the shared machine hits both sides.
    const without: LoadResult[] = [];
    const withCal: LoadResult[] = [];
    for (let round = 0; round < 2; round++) {
      without.push(await load({ url: url(pagePlain), duration: 4, connections: 10 }));
      withCal.push(await load({ url: url(pageConnected), duration: 4, connections: 10 }));
    }
    const a = avg(without);
    const b = avg(withCal);
    printResult(`RR 20 hosts, ${label}, no calendars`, a);
    printResult(`RR 20 hosts, ${label}, 500 busy each`, b);
    process.stdout.write(`  time ratio with/without calendars: ${(a.rps / b.rps).toFixed(2)}× (target ≤ 1.2×)\n`);
  }
}

/** Half the hosts in New York, half in London (as the scheduling bench). */
function i18nZone(label: string): string {
  return label.length % 2 ? 'America/New_York' : 'Europe/London';
}

async function syncBench(env: BenchEnv): Promise<void> {
  const radicale = await startRadicale({ users: { bench: 'bench-pw' } });
  try {
    const cal = await radicale.mkcalendar('bench', 'big', 'Big');
    const rnd = rng(99);
    const now = Date.now();
    const event = (i: number, shift = 0) => {
      const start = now + Math.floor(rnd() * 60 * 96) * 15 * MIN + shift;
      return [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//fss bench//EN',
        'BEGIN:VEVENT',
        `UID:big-${i}`,
        `DTSTAMP:${utc(now)}`,
        `DTSTART:${utc(start)}`,
        `DTEND:${utc(start + 45 * MIN)}`,
        ...(i % 5 === 0 ? ['RRULE:FREQ=WEEKLY;COUNT=20'] : []),
        `SUMMARY:Event ${i}`,
        'DESCRIPTION:Some text that a real calendar carries and we do not keep',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n');
    };
    // Set-up, not measured: 2,000 PUTs take minutes on a loaded machine, so the objects are written
    // straight into Radicale's storage folder (one file per object, which it reads as it would its own).
    const folder = path.join(radicale.storageDir, 'collection-root', 'bench', 'big');
    for (let i = 0; i < 2000; i++) fs.writeFileSync(path.join(folder, `e${i}.ics`), event(i));
    // Radicale parses and caches every object on first read; a server in use has that cache warm.
    const warm = Date.now();
    const listed = await radicale.report('bench', cal);
    process.stdout.write(
      `Radicale: ${listed.length} objects written and read once (its cache warmed in ${((Date.now() - warm) / 1000).toFixed(1)} s, set-up)\n`,
    );
    const conn = await insertConnection(
      env,
      env.team.userId,
      { kind: 'caldav', url: radicale.url, username: 'bench', password: 'bench-pw' },
      'Radicale',
    );
    const deps = { db: env.db, config: env.deps.config };
    const timed = async (label: string) => {
      const t = process.hrtime.bigint();
      const r = await syncConnection(deps, { connectionId: conn });
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (r.outcome !== 'ok') throw new Error(`${label}: ${r.message}`);
      const row = await env.db('calendar_connections').where({ id: conn }).first('event_count', 'busy_count');
      process.stdout.write(
        `${label.padEnd(58)} ${ms.toFixed(0).padStart(6)} ms  (${row?.event_count} events, ${row?.busy_count} busy intervals)\n`,
      );
    };
    await timed('sync 2,000-event calendar from Radicale: first sync');
    await timed('sync again, nothing changed (ctag/sync-token equal)');
    for (let i = 0; i < 5; i++) await radicale.put('bench', cal, `e${i * 7}.ics`, event(i * 7, 30 * MIN));
    await radicale.remove('bench', `${cal}e1999.ics`);
    await radicale.put('bench', cal, 'new.ics', event(5000));
    await timed('incremental sync after 5 edits, 1 delete, 1 add');
    await env
      .db('calendar_connections')
      .where({ id: conn })
      .update({ expanded_until: new Date(now) });
    await timed('window moved: every stored object expanded again');
  } finally {
    await radicale.dispose();
  }
}

export default async function run(env: BenchEnv): Promise<void> {
  await corpusBench();
  await availabilityBench(env);
  await syncBench(env);
}
