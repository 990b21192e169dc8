import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baseline, load, printResult, type BenchEnv } from './harness';
import { createForm } from '../services/forms/forms';

/**
 * Forms: public submission throughput and p99 against the bare baseline, then the submissions
 * list of one form at 1,000,000 submissions (page 1, a middle page, the last page), with the
 * query plans.
 */
const SUBMISSIONS = 1_000_000;
const PER_PAGE = 20;
/** Concurrent connections of the submission load (enough to keep the pool and group commit busy). */
const CONNECTIONS = Number(process.env.FORMS_BENCH_CONNECTIONS ?? 32);

/** autocannon runs in a worker thread: the per-request body (a new email each time) comes from a module path. */
function requestModule(): string {
  const file = path.join(os.tmpdir(), `fss-forms-bench-${process.pid}.js`);
  fs.writeFileSync(
    file,
    `let i = 0; const tag = Math.random().toString(36).slice(2);
module.exports = (req) => ({ ...req, body: JSON.stringify({ fields: { email: 'b' + tag + '-' + (++i) + '@bench.example', name: 'Bench ' + i }, status: 'completed' }) });\n`,
  );
  return file;
}

async function timeGet(url: string, apiKey: string, runs: number): Promise<{ p50: number; max: number; total: number }> {
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
    const body = (await res.json()) as { data: unknown[]; meta: { total: number } };
    times.push(performance.now() - t0);
    if (res.status !== 200 || body.data.length === 0) throw new Error(`GET ${url} answered ${res.status} with ${body.data?.length} rows`);
    total = body.meta.total;
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], max: times[times.length - 1], total };
}

export default async function run(env: BenchEnv): Promise<void> {
  const { db, team } = env;
  const base = await baseline(env);
  printResult('baseline: bare Koa + select 1', base);

  const form = await createForm(
    { db },
    {
      teamId: team.teamId,
      values: {
        title: 'Bench form',
        status: 'published',
        fields: [
          { type: 'email', label: 'Email', name: 'email', required: true },
          { type: 'text', label: 'Name', name: 'name' },
        ],
      },
    },
  );
  const submitLoad = {
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) bench' },
    duration: 10,
    connections: CONNECTIONS,
    requests: [{ method: 'POST', setupRequest: requestModule() } as never],
  };
  // The same-work baseline: a bare Koa handler on the same pool doing the same inserts (contact,
  // submission, event) in one transaction, measured in this run (issue: ≥ 0.8 of it).
  const sameWork = await baseline(env, 10, 'submission', {
    env: { FORM_ID: form.id },
    path: '/submissions?utm_source=bench&tracking_id=t1',
    load: submitLoad,
  });
  printResult(`baseline: bare Koa, the same inserts in one transaction (${CONNECTIONS} conns)`, sameWork, base);
  if (sameWork.errors || sameWork.non2xx) throw new Error('the same-work baseline failed under load');
  const submit = await load({ url: `${env.baseUrl}/api/forms/${form.slug}/submissions?utm_source=bench&tracking_id=t1`, ...submitLoad });
  printResult(`POST /api/forms/:slug/submissions (new contact each, ${CONNECTIONS} conns)`, submit, base);
  process.stdout.write(
    `  ratio to the same-work baseline ${(submit.rps / sameWork.rps).toFixed(2)} (target ≥ 0.8 ${submit.rps / sameWork.rps >= 0.8 ? 'met' : 'NOT met'})\n`,
  );
  if (submit.errors || submit.non2xx) throw new Error('public submissions failed under load');
  // FORMS_BENCH_ONLY=submit skips the 1M-row list part (for iterating on the submission path).
  if (process.env.FORMS_BENCH_ONLY === 'submit') return;

  // 1M submissions in one form of the team.
  const big = await createForm(
    { db },
    {
      teamId: team.teamId,
      values: {
        title: 'Million',
        status: 'published',
        fields: [{ type: 'email', label: 'Email', name: 'email' }],
      },
    },
  );
  const t0 = performance.now();
  await db.raw(
    `INSERT INTO submissions (team_id, form_id, status, fields, metadata, submitted_at, created_at, updated_at)
     SELECT ?, ?, CASE WHEN g % 10 = 0 THEN 'partial' ELSE 'completed' END,
            jsonb_build_object('email', 'user' || g || '@example.com'),
            '{"utm_source":"news","device_type":"desktop"}'::jsonb,
            ts, ts, ts
       FROM generate_series(1, ?) g, LATERAL (SELECT date_trunc('milliseconds', now() - g * interval '30 seconds') AS ts) t`,
    [team.teamId, big.id, SUBMISSIONS],
  );
  await db.raw('VACUUM ANALYZE submissions');
  process.stdout.write(`seeded ${SUBMISSIONS} submissions in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

  const lastPage = Math.ceil(SUBMISSIONS / PER_PAGE);
  const pages: Array<[string, string]> = [
    ['page 1', `page=1&per_page=${PER_PAGE}`],
    ['page 1, status=completed', `page=1&per_page=${PER_PAGE}&status=completed`],
    [`page ${lastPage / 2} (middle)`, `page=${lastPage / 2}&per_page=${PER_PAGE}`],
    [`page ${lastPage} (last)`, `page=${lastPage}&per_page=${PER_PAGE}`],
    [
      'page 2 of a one-week window',
      `page=2&per_page=${PER_PAGE}&since=${encodeURIComponent(new Date(Date.now() - 7 * 86400_000).toISOString())}`,
    ],
  ];
  for (const [name, qs] of pages) {
    const r = await timeGet(`${env.baseUrl}/api/v1/forms/${big.id}/submissions?${qs}`, team.apiKey, 15);
    process.stdout.write(
      `GET submissions ${name.padEnd(32)} p50 ${r.p50.toFixed(1)} ms  max ${r.max.toFixed(1)} ms  (total ${r.total})${r.p50 > 50 ? '  OVER 50 ms' : ''}\n`,
    );
  }
  // The plans of what one deep-page request runs: the per-day counters, then the rows after the seek.
  const day = new Date(Date.now() - (SUBMISSIONS * 30_000) / 2).toISOString().slice(0, 10);
  const dayEnd = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
  for (const [name, sql, bindings] of [
    [
      'page 1 rows',
      `SELECT id, fields, metadata FROM submissions WHERE form_id = ? ORDER BY submitted_at DESC, id DESC LIMIT 20`,
      [big.id],
    ],
    [
      'total and seek: per-day counters',
      `SELECT day, sum(n) FROM submission_counts WHERE form_id = ? GROUP BY day HAVING sum(n) <> 0 ORDER BY day DESC`,
      [big.id],
    ],
    [
      'middle page rows after the seek',
      `SELECT id, fields, metadata FROM submissions WHERE form_id = ? AND submitted_at < ? ORDER BY submitted_at DESC, id DESC LIMIT 20 OFFSET 1500`,
      [big.id, dayEnd],
    ],
    [
      'for comparison: plain OFFSET to the last page',
      `SELECT id FROM submissions WHERE form_id = ? ORDER BY submitted_at DESC, id DESC LIMIT 20 OFFSET ${SUBMISSIONS - PER_PAGE}`,
      [big.id],
    ],
  ] as const) {
    const plan = await db.raw(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, bindings as unknown as string[]);
    process.stdout.write(
      `\nEXPLAIN ANALYZE (${name}):\n${plan.rows.map((r: Record<string, string>) => `  ${r['QUERY PLAN']}`).join('\n')}\n`,
    );
  }
}
