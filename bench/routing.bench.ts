import { loadavg } from 'node:os';
import { dateAhead } from '../test/helpers/open-day';
import { routingWorld } from '../test/forms/routing/world';
import { createForm } from '../services/forms/forms';
import type { BenchEnv } from './harness';

/**
 * Routing (docs/forms.md "Routing"): the time from a submission to a routed answer with the routed
 * hosts' free times, i.e. what the form page does: POST the answers (routed: the rules, the hosts
 * and the signed prefill token) and GET the slots with the token, one after the other; next to a
 * plain submission (POST only, a form without routing) in the same run. 16 clients, each doing its
 * calls back to back for DURATION_S; p50 and p99 of the whole sequence, per client iteration.
 */
const CLIENTS = 16;
const DURATION_S = Number(process.env.ROUTING_BENCH_SECONDS ?? 10);

interface Figures {
  n: number;
  errors: number;
  p50: number;
  p99: number;
  rps: number;
}

async function measure(iteration: (i: number) => Promise<boolean>): Promise<Figures> {
  const times: number[] = [];
  let errors = 0;
  let seq = 0;
  const end = performance.now() + DURATION_S * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const ok = await iteration(++seq).catch(() => false);
        if (ok) times.push(performance.now() - t0);
        else errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const at = (q: number) => Number((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN).toFixed(1));
  return { n: times.length, errors, p50: at(0.5), p99: at(0.99), rps: times.length / elapsed };
}

function print(name: string, f: Figures): void {
  process.stdout.write(
    `${name.padEnd(56)} ${f.rps.toFixed(0).padStart(6)} /s  p50 ${f.p50} ms  p99 ${f.p99} ms  (n ${f.n}${f.errors ? `, errors ${f.errors}` : ''})\n`,
  );
}

export default async function run(env: BenchEnv): Promise<void> {
  const { db, team } = env;
  const r = await routingWorld(db, env.inProcessUrl, team, 'bench-routing');
  const plain = await createForm(
    { db },
    {
      teamId: team.teamId,
      values: {
        title: 'Bench plain form',
        slug: 'bench-plain',
        status: 'published',
        fields: [
          { type: 'text', label: 'Name', name: 'name', required: true },
          { type: 'email', label: 'Email', name: 'email', required: true },
          { type: 'select', label: 'Region', name: 'region', options: ['EMEA', 'US', 'APAC'] },
        ],
      },
    },
  );
  const day = dateAhead(2);
  const post = (slug: string, i: number) =>
    fetch(`${env.baseUrl}/api/forms/${slug}/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fields: { name: `Bench ${i}`, email: `r${i}@bench.example`, region: 'EMEA' } }),
    });

  const plainFigures = await measure(async (i) => (await post(plain.slug, i)).status === 201);
  print('plain submission: POST (16 clients)', plainFigures);

  const routed = await measure(async (i) => {
    const res = await post(r.formSlug, i);
    if (res.status !== 201) return false;
    const token = ((await res.json()) as { data: { routing?: { prefill_token?: string } } }).data.routing?.prefill_token;
    if (!token) return false;
    const q = new URLSearchParams({ event_type_id: r.eventTypeId, start_date: day, end_date: day, timezone: 'UTC', routing_token: token });
    const slots = await fetch(`${env.baseUrl}/api/calendar/availability?${q}`);
    const body = (await slots.json()) as { data?: { slots: unknown[] } };
    return slots.status === 200 && (body.data?.slots.length ?? 0) > 0;
  });
  print("routed: POST, then the routed hosts' slots (16 clients)", routed);
  process.stdout.write(
    `routed / plain p50 ${(routed.p50 / plainFigures.p50).toFixed(2)}x, p99 ${(routed.p99 / plainFigures.p99).toFixed(2)}x ` +
      `(same run; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})\n`,
  );
}
