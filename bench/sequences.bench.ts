import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../activities';
import { buildWorkerDeps } from '../activities/deps';
import { createDb, type Db } from '../db/knex';
import { benchProcesses, cpuPer, cpuSeconds } from './cpu';
import { baseline, printResult, type BenchEnv } from './harness';
import { ceilings, emptyWorkflowRate } from './temporal-ceiling';
import { eventName, historyCounts, load, outboxFigures, printStatements, statementCounter, timeline } from './sequences-measure';

/**
 * Sequences: one durable workflow per enrollment, email sent over SMTP to the harness's counting
 * server. Two parts (BENCH_SEQ_PARTS=burst,steady):
 * - burst: BENCH_ENROLLMENTS (10,000) contacts enrolled in a one-step sequence whose step is due at
 *   once (10 requests of 1,000): emails/s from the first request to the last email, as a ratio to
 *   the empty-workflow ceiling of this Temporal server measured in the same run (target ≥ 0.9);
 * - steady: as many enrollments already sleeping (a sending window that opens at a minute boundary,
 *   so every one's step falls due at the same instant): emails/s from the due time, and how far the
 *   last email is from it.
 * Each part counts, from the histories of a sample of enrollments, the events per enrollment
 * (workflow tasks, local activities, activities, timers), and with the worker in this process the
 * SQL statements per email (the activities' own connection pool) and per enrollment (the relay).
 * Every email must arrive exactly once (by recipient); the bench fails otherwise.
 */
const N = Number(process.env.BENCH_ENROLLMENTS ?? process.env.BENCH_SEQ_CONTACTS ?? 10_000);
const BATCH = Math.min(1_000, N);
const PARTS = (process.env.BENCH_SEQ_PARTS ?? 'burst,steady').split(',');
/** How long to wait for the last email after the last enroll request (burst) or the due time (steady). */
const WAIT_S = Number(process.env.BENCH_SEQ_WAIT_S ?? 900);
/** Histories fetched per part to count events per enrollment. */
const SAMPLE = Number(process.env.BENCH_SEQ_HISTORY_SAMPLE ?? 100);
const TARGET_RATIO = 0.9;

async function makeContacts(env: BenchEnv, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < N; i += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, N - i) }, (_, j) => ({
      team_id: env.team.teamId,
      email: `${prefix}-${i + j}@example.com`,
      first_name: `C${i + j}`,
    }));
    ids.push(...(await env.db('contacts').insert(rows).returning('id')).map((r: { id: string }) => r.id));
  }
  return ids;
}

async function createSequence(env: BenchEnv, name: string, window?: { days: number[]; start: string; end: string }) {
  const res = await fetch(`${env.inProcessUrl}/api/v1/sequences`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.team.session}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      status: 'active',
      ...(window ? { sending_window: window } : {}),
      steps: [
        {
          channel: 'email',
          delay: { value: 0, unit: 'minutes' },
          subject: 'Hi {{first_name}}',
          body: '<p>Hello {{first_name}}</p><a href="https://example.com">x</a>',
        },
      ],
    }),
  });
  if (res.status !== 201) throw new Error(`creating the sequence answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/** Enroll the contacts in requests of 1,000, spread over the API processes. Returns the enrollment ids. */
async function enrollAll(env: BenchEnv, sequenceId: string, contactIds: string[]) {
  const t0 = Date.now();
  const perRequest: number[] = [];
  const enrollmentIds: string[] = [];
  for (let i = 0; i < contactIds.length; i += BATCH) {
    const t = Date.now();
    const res = await fetch(`${env.apiUrls[(i / BATCH) % env.apiUrls.length]}/api/v1/sequences/${sequenceId}/enrollments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.team.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ contact_ids: contactIds.slice(i, i + BATCH) }),
    });
    if (res.status !== 201) throw new Error(`enroll answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { data: Array<{ id: string; status: string }> };
    if (body.data.some((e) => e.status !== 'active')) throw new Error('an enrollment was skipped');
    enrollmentIds.push(...body.data.map((e) => e.id));
    perRequest.push(Date.now() - t);
  }
  const apiMs = Date.now() - t0;
  perRequest.sort((a, b) => a - b);
  process.stdout.write(
    `  enroll API: ${contactIds.length} contacts in ${perRequest.length} requests (${env.apiUrls.length} API process(es)): ${apiMs} ms, ` +
      `per request p50 ${perRequest[Math.floor(perRequest.length / 2)]} ms, max ${perRequest[perRequest.length - 1]} ms\n`,
  );
  return { t0, enrollmentIds };
}

/** Wait for an email to each of the part's contacts (or the deadline); fail on any duplicate or missing one. */
async function awaitEmails(env: BenchEnv, prefix: string, deadline: number): Promise<number[]> {
  const mine = () => env.smtp.arrivals.filter((a) => a.to.startsWith(`${prefix}-`));
  while (mine().length < N && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  // A little longer: a duplicate would come after the last first copy.
  await new Promise((r) => setTimeout(r, 2000));
  const got = mine().map((a) => a.at);
  const recipients = [...env.smtp.byRecipient.entries()].filter(([to]) => to.startsWith(`${prefix}-`));
  const twice = recipients.filter(([, n]) => n > 1).length;
  process.stdout.write(`  emails: ${recipients.length}/${N} contacts got one, ${twice} got more than one (${got.length} messages)\n`);
  if (recipients.length < N || twice > 0)
    throw new Error(`${prefix}: ${recipients.length} of ${N} emails arrived, ${twice} contacts got two`);
  return got;
}

/** The next minute boundary at least `seconds` from now that is not the day's last minute (UTC). */
function dueAfter(seconds: number): Date {
  const due = new Date(Math.ceil((Date.now() + seconds * 1000) / 60_000) * 60_000);
  if (due.getUTCHours() === 23 && due.getUTCMinutes() === 59) due.setTime(due.getTime() + 60_000);
  return due;
}

const hhmm = (d: Date) => d.toISOString().slice(11, 16);

/** Enrollments that went to sleep until a window opens (counted by the worker in this process). */
let windowWaits = 0;

/** The activities, counting the sends (or starts) that found the sending window closed. */
function countingWaits(activities: ReturnType<typeof createActivities>): ReturnType<typeof createActivities> {
  const isWait = (r: { outcome?: string } | undefined) => r?.outcome === 'wait';
  return {
    ...activities,
    async seqSendStep(input) {
      const r = await activities.seqSendStep(input);
      if (isWait(r)) windowWaits++;
      return r;
    },
    async seqStartEnrollment(input) {
      const r = await activities.seqStartEnrollment(input);
      if (isWait(r.send)) windowWaits++;
      return r;
    },
  };
}

export default async function run(env: BenchEnv): Promise<void> {
  if (!env.temporal) throw new Error('the sequences bench needs Temporal');
  process.stdout.write(
    env.workerProcesses > 0
      ? `processes: ${env.apiUrls.length} API (bin/api.ts), ${env.workerProcesses} workers (bin/worker.ts, each with its relay), one Postgres, one Temporal server\n`
      : `processes: 1 API (bin/api.ts); the worker and the outbox relay in the bench process\n`,
  );
  process.stdout.write(`enrollments per part: ${N}; load average ${load()}\n`);
  const base = await baseline(env, 5);
  printResult('baseline: bare Koa + select 1', base);
  // CPU seconds by process, per empty workflow and per email: where the machine's time goes.
  const cpu = benchProcesses({
    apiPids: env.pids.api,
    workerPids: env.pids.workers,
    temporalPort: Number(env.temporal.env.address.split(':').pop()),
    pgPort: Number(new URL(env.databaseUrl).port),
  });
  const ceilingCount = Number(process.env.BENCH_CEILING_COUNT ?? 1000);
  const ceiling = await ceilings(env, ceilingCount, 64, cpu);
  // What an enrollment adds on the server without any work of ours: its start's search attributes
  // and memo (the Temporal UI's filters), then the status upsert at its end.
  if (process.env.BENCH_SEQ_CEILING_VARIANTS !== '0') {
    const searchAttributes = {
      TeamId: env.team.teamId,
      SequenceId: env.team.teamId,
      ContactId: env.team.userId,
      EnrollmentStatus: 'active',
    };
    const memo = { sequence_name: 'Bench', contact_email: 'someone@example.com' };
    for (const [name, variant] of [
      ['empty workflows started with an enrollment’s search attributes and memo', { searchAttributes, memo }],
      ['the same + the status upsert at the end', { searchAttributes, memo, workflowType: 'emptyWorkflowWithUpsert' as const }],
    ] as const) {
      const c0 = cpuSeconds(cpu);
      const r = await emptyWorkflowRate(env, ceilingCount, 64, variant);
      printResult(`  ${name}`, r);
      process.stdout.write(
        `    ${(r.rps / ceiling.rps).toFixed(2)} of the empty-workflow ceiling; CPU per workflow: ${cpuPer(c0, cpuSeconds(cpu), ceilingCount)}\n`,
      );
    }
  }

  // The worker in this process (as in the other benches): the harness's one swapped for one whose
  // activities have their own connection pool, so that their statements can be counted.
  let workerDb: Db | undefined;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  let activitySql: ReturnType<typeof statementCounter> | undefined;
  let relaySql: ReturnType<typeof statementCounter> | undefined;
  const harnessWorker = env.temporal.worker;
  if (harnessWorker) {
    harnessWorker.shutdown();
    while (harnessWorker.getState() !== 'STOPPED') await new Promise((r) => setTimeout(r, 50));
    workerDb = createDb(env.databaseUrl, 20);
    activitySql = statementCounter(workerDb);
    relaySql = statementCounter(env.db);
    const config = env.deps.config;
    worker = await Worker.create({
      connection: env.temporal.env.nativeConnection as NativeConnection,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowsPath: require.resolve('../workflows'),
      activities: countingWaits(createActivities(buildWorkerDeps(config, workerDb, env.deps.outbox))),
      maxConcurrentActivityTaskExecutions: 200,
      maxConcurrentLocalActivityExecutions: 200,
      maxConcurrentWorkflowTaskExecutions: 200,
      maxCachedWorkflows: 2 * N + 1000,
      stickyQueueScheduleToStartTimeout: config.TEMPORAL_STICKY_TIMEOUT_S * 1000, // as bin/worker.ts
    });
    running = worker.run();
  }

  try {
    let startRate = 0;
    if (PARTS.includes('burst')) {
      process.stdout.write(`\n-- burst: ${N} enrollments, first step due at once (load average ${load()})\n`);
      const seq = await createSequence(env, 'Bench burst');
      const contacts = await makeContacts(env, 'burst');
      const since = new Date(Date.now() - 1000);
      activitySql?.reset();
      relaySql?.reset();
      const cpu0 = cpuSeconds(cpu);
      const { t0, enrollmentIds } = await enrollAll(env, seq, contacts);
      const got = await awaitEmails(env, 'burst', Date.now() + WAIT_S * 1000);
      const cpu1 = cpuSeconds(cpu);
      const rel = relaySql?.snapshot();
      const act = activitySql?.snapshot();
      const last = Math.max(...got);
      const rate = N / ((last - t0) / 1000);
      process.stdout.write(`  emails per 10 s window from the first request: ${timeline(got, t0)}\n`);
      await outboxFigures(env, seq, since);
      const r = await env
        .db('outbox')
        .where('created_at', '>=', since)
        .first<{ s: string }>(env.db.raw('extract(epoch from max(started_at) - min(created_at)) AS s'));
      startRate = N / Number(r?.s);
      if (act && rel) {
        printStatements('SQL statements per email by the activities', act, N);
        printStatements('SQL statements per enrollment by the outbox relay', rel, N);
      }
      await historyCounts(env, enrollmentIds, SAMPLE);
      process.stdout.write(`  CPU per email (enrollment API request included): ${cpuPer(cpu0, cpu1, N)}\n`);
      process.stdout.write(
        `  burst: ${N} emails in ${((last - t0) / 1000).toFixed(1)} s from the first request: ${rate.toFixed(1)} emails/s = ` +
          `${(rate / ceiling.rps).toFixed(2)} of the empty-workflow ceiling (${ceiling.rps.toFixed(1)}/s) ` +
          `(target ≥ ${TARGET_RATIO}: ${rate / ceiling.rps >= TARGET_RATIO ? 'met' : 'NOT met'}); load average ${load()}\n`,
      );
      const after = await emptyWorkflowRate(env, ceilingCount, 64);
      printResult('  the ceiling again, after the burst', after);
      process.stdout.write(`  burst emails/s / the ceiling after it: ${(rate / after.rps).toFixed(2)}\n`);
    }

    if (PARTS.includes('steady')) {
      // Every enrollment's step waits for a sending window that opens at `due`: all sleep, then wake together.
      const setupS = Number(process.env.BENCH_SEQ_SLEEP_S ?? (startRate > 0 ? (N / startRate) * 2 + 60 : N / 15 + 60));
      const due = dueAfter(setupS);
      const end = new Date(
        Math.min(due.getTime() + 3_600_000, Date.UTC(due.getUTCFullYear(), due.getUTCMonth(), due.getUTCDate(), 23, 59)),
      );
      process.stdout.write(
        `\n-- steady: ${N} enrollments sleeping until their step falls due at ${due.toISOString()} (sending window ${hhmm(due)}–${hhmm(end)} UTC; load average ${load()})\n`,
      );
      const seq = await createSequence(env, 'Bench steady', { days: [0, 1, 2, 3, 4, 5, 6], start: hhmm(due), end: hhmm(end) });
      const contacts = await makeContacts(env, 'steady');
      const since = new Date(Date.now() - 1000);
      activitySql?.reset();
      relaySql?.reset();
      const { enrollmentIds } = await enrollAll(env, seq, contacts);
      // All asleep: every outbox row started, every start found the window closed (with the worker
      // in this process), and the histories of the last started show their timer.
      const waitsBefore = windowWaits;
      for (;;) {
        const left = await env.db('outbox').where('created_at', '>=', since).whereNull('started_at').count<{ n: number }[]>('* as n');
        const asleep = env.workerProcesses > 0 || windowWaits - waitsBefore >= N;
        if ((Number(left[0].n) === 0 && asleep) || Date.now() > due.getTime()) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      const lastStarted = await env
        .db('outbox')
        .where('created_at', '>=', since)
        .orderBy('started_at', 'desc')
        .limit(20)
        .pluck('workflow_id');
      let sleeping = 0;
      for (const id of lastStarted) {
        for (let i = 0; i < 40; i++) {
          const h = await env.temporal.client.workflow.getHandle(id).fetchHistory();
          if ((h.events ?? []).some((e) => eventName(e.eventType as number) === 'TimerStarted')) {
            sleeping++;
            break;
          }
          await new Promise((r) => setTimeout(r, 250));
        }
      }
      const asleepAt = Date.now();
      if (env.workerProcesses === 0) process.stdout.write(`  ${windowWaits - waitsBefore} of ${N} starts found the window closed\n`);
      process.stdout.write(
        `  ${sleeping} of the ${lastStarted.length} last started show their timer ${((due.getTime() - asleepAt) / 1000).toFixed(0)} s before the due time` +
          `${asleepAt > due.getTime() ? ' (the due time came before every start had found the window closed)' : ''}\n`,
      );
      const asleepAct = activitySql?.snapshot();
      const asleepRel = relaySql?.snapshot();
      if (asleepAct && asleepRel) {
        printStatements('going to sleep: SQL statements per enrollment by the activities', asleepAct, N);
        printStatements('going to sleep: SQL statements per enrollment by the outbox relay', asleepRel, N);
      }
      activitySql?.reset();
      relaySql?.reset();
      const cpu0 = cpuSeconds(cpu);
      const got = await awaitEmails(env, 'steady', due.getTime() + WAIT_S * 1000);
      const cpu1 = cpuSeconds(cpu);
      const lags = got.map((a) => a - due.getTime()).sort((a, b) => a - b);
      const lastLag = lags[lags.length - 1];
      const rate = N / (lastLag / 1000);
      process.stdout.write(`  emails per 10 s window from the due time: ${timeline(got, due.getTime())}\n`);
      await outboxFigures(env, seq, since);
      if (activitySql) printStatements('at the due time: SQL statements per email by the activities', activitySql.snapshot(), N);
      await historyCounts(env, enrollmentIds, SAMPLE);
      process.stdout.write(`  CPU per email from the due time: ${cpuPer(cpu0, cpu1, N)}\n`);
      process.stdout.write(
        `  steady: ${N} emails due at the same instant: ${rate.toFixed(1)} emails/s (${(rate / ceiling.rps).toFixed(2)} of the ceiling); ` +
          `from the due time: first ${lags[0]} ms, median ${lags[Math.floor(lags.length / 2)]} ms, last ${(lastLag / 1000).toFixed(1)} s; load average ${load()}\n`,
      );
    }
  } finally {
    if (worker) {
      worker.shutdown();
      await running;
    }
    await workerDb?.destroy();
  }
}
