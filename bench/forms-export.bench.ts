import fs from 'node:fs';
import { Client as PgClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { BenchEnv } from './harness';
import { createForm } from '../services/forms/forms';
import { csvPlan } from '../services/forms/export';

/**
 * The submissions export at 1,000,000 submissions: `GET …/submissions/export?format=csv` from the
 * API process (cursor → CSV → HTTP) against a bare `COPY (…) TO STDOUT (FORMAT csv)` of the same
 * rows read in this process, in the same run. Prints rows/s of both, the ratio, and the API
 * process's peak RSS during the export (VmHWM, reset before through /proc/<pid>/clear_refs).
 */
const SUBMISSIONS = Number(process.env.EXPORT_BENCH_ROWS ?? 1_000_000);
const RSS_LIMIT_MB = 200;
const MIN_RATIO = 0.5;

function procStatus(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Reset the process's peak RSS so VmHWM covers only what follows (needs the right to write clear_refs). */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

async function timeCopy(databaseUrl: string, sql: string): Promise<{ seconds: number; bytes: number }> {
  const client = new PgClient({ connectionString: databaseUrl });
  await client.connect();
  try {
    const t0 = performance.now();
    const stream = client.query(copyTo(`COPY (${sql}) TO STDOUT (FORMAT csv, HEADER)`));
    let bytes = 0;
    for await (const chunk of stream) bytes += (chunk as Buffer).length;
    return { seconds: (performance.now() - t0) / 1000, bytes };
  } finally {
    await client.end();
  }
}

async function timeExport(
  url: string,
  apiKey: string,
  pid: number,
): Promise<{ seconds: number; bytes: number; lines: number; peakMb: number; sampledMb: number }> {
  let sampledMb = procStatus(pid, 'VmRSS');
  const sampler = setInterval(() => (sampledMb = Math.max(sampledMb, procStatus(pid, 'VmRSS'))), 50);
  try {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
    if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    }
    return { seconds: (performance.now() - t0) / 1000, bytes, lines, peakMb: procStatus(pid, 'VmHWM'), sampledMb };
  } finally {
    clearInterval(sampler);
  }
}

export default async function run(env: BenchEnv): Promise<void> {
  const { db, team } = env;
  const form = await createForm(
    { db },
    {
      teamId: team.teamId,
      values: {
        title: 'Export million',
        status: 'published',
        fields: [
          { type: 'email', label: 'Email', name: 'email', required: true },
          { type: 'text', label: 'First name', name: 'first_name' },
          { type: 'text', label: 'Company', name: 'company' },
          { type: 'number', label: 'Seats', name: 'seats' },
          { type: 'multi_select', label: 'Interests', name: 'interests', options: ['forms', 'sequences', 'scheduling'] },
          { type: 'textarea', label: 'Message', name: 'message' },
        ],
      },
    },
  );
  const t0 = performance.now();
  await db.raw(
    `INSERT INTO submissions (team_id, form_id, status, fields, metadata, submitted_at, created_at, updated_at)
     SELECT ?, ?, CASE WHEN g % 10 = 0 THEN 'partial' ELSE 'completed' END,
            jsonb_build_object('email', 'user' || g || '@example.com', 'first_name', 'Ann ' || g, 'company', 'Acme, Inc. "' || (g % 97) || '"',
                               'seats', g % 500, 'interests', jsonb_build_array('forms', 'scheduling'),
                               'message', CASE WHEN g % 7 = 0 THEN '=cmd|calc' ELSE 'Hello there,' || chr(10) || 'line two of ' || g END),
            jsonb_build_object('utm_source', 'news', 'utm_medium', 'email', 'utm_campaign', NULL, 'device_type', 'desktop',
                               'referrer', 'https://example.com/page', 'user_agent', 'Mozilla/5.0 (X11; Linux x86_64)', 'country', 'DE',
                               'tracking_id', 't-' || (g % 1000), 'visitor_id', 'v-' || g, 'session_id', NULL,
                               'partner_token', NULL, 'attribution_id', NULL),
            ts, ts, ts
       FROM generate_series(1, ?) g, LATERAL (SELECT date_trunc('milliseconds', now() - g * interval '30 seconds') AS ts) t`,
    [team.teamId, form.id, SUBMISSIONS],
  );
  await db.raw('VACUUM ANALYZE submissions');
  process.stdout.write(`seeded ${SUBMISSIONS} submissions in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

  const plan = csvPlan(form, { format: 'csv', bom: false });
  const sameQuery = db.raw(plan.sql, plan.bindings as never).toQuery();
  const rawTable = db
    .raw('SELECT id, status, submitted_at, fields, metadata FROM submissions WHERE form_id = ? ORDER BY submitted_at, id', [form.id])
    .toQuery();
  const idleMb = procStatus(env.apiPid, 'VmRSS');
  const reset = resetPeak(env.apiPid);
  const url = `${env.baseUrl}/api/v1/forms/${form.id}/submissions/export?format=csv`;
  // Warm both paths once on a small window, then measure: COPY, export, COPY (the best COPY counts).
  await timeExport(`${url}&since=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}`, team.apiKey, env.apiPid);
  const copy1 = await timeCopy(env.databaseUrl, sameQuery);
  if (reset) resetPeak(env.apiPid);
  const exp = await timeExport(url, team.apiKey, env.apiPid);
  const copy2 = await timeCopy(env.databaseUrl, sameQuery);
  const copyRaw = await timeCopy(env.databaseUrl, rawTable);
  const copy = copy1.seconds < copy2.seconds ? copy1 : copy2;
  if (exp.lines < SUBMISSIONS + 1) throw new Error(`export returned ${exp.lines} lines for ${SUBMISSIONS} rows`);

  const rate = (s: number) => Math.round(SUBMISSIONS / s);
  const ratio = rate(exp.seconds) / rate(copy.seconds);
  const mb = (b: number) => (b / 1048576).toFixed(0);
  process.stdout.write(
    [
      `baseline COPY (same query) TO STDOUT csv   ${rate(copy.seconds).toLocaleString('en')} rows/s  (${copy.seconds.toFixed(2)} s, ${mb(copy.bytes)} MB; runs ${copy1.seconds.toFixed(2)} s / ${copy2.seconds.toFixed(2)} s)`,
      `baseline COPY (raw columns) TO STDOUT csv  ${rate(copyRaw.seconds).toLocaleString('en')} rows/s  (${copyRaw.seconds.toFixed(2)} s, ${mb(copyRaw.bytes)} MB)`,
      `GET …/submissions/export?format=csv        ${rate(exp.seconds).toLocaleString('en')} rows/s  (${exp.seconds.toFixed(2)} s, ${mb(exp.bytes)} MB)`,
      `ratio export / COPY (same query)           ${ratio.toFixed(2)}  (required >= ${MIN_RATIO})${ratio < MIN_RATIO ? '  BELOW TARGET' : ''}`,
      `ratio export / COPY (raw columns)          ${(rate(exp.seconds) / rate(copyRaw.seconds)).toFixed(2)}`,
      `API process RSS: idle ${idleMb.toFixed(0)} MB, peak during export ${reset ? exp.peakMb.toFixed(0) : 'n/a (clear_refs not writable)'} MB (VmHWM), sampled max ${exp.sampledMb.toFixed(0)} MB (limit ${RSS_LIMIT_MB} MB)${Math.max(reset ? exp.peakMb : 0, exp.sampledMb) >= RSS_LIMIT_MB ? '  OVER LIMIT' : ''}`,
    ].join('\n') + '\n',
  );
}
