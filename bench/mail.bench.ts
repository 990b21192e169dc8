import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { buildMailCode } from './mail-build';
import { median, type MailReadings } from './mail-measure';

const { nodeLtsBinary, NODE_LTS_VERSION } = require('../scripts/tool-paths') as {
  nodeLtsBinary: () => string | null;
  NODE_LTS_VERSION: string;
};

/**
 * A guard on the inbound classifier's cost: on the whole real-message corpus (test/mail/corpus/),
 * making the facts and classifying must cost at most GUARD (15%) of the parse they follow.
 * bench/mail-measure.ts times, message by message, the parse alone and parse + facts + classify;
 * the difference over the parse is the share printed. A message also costs a database write and a
 * workflow, so the guard keeps the classifier a small part of the parse, not a race for microseconds.
 *
 * Each of MAIL_BENCH_PROCESSES processes (3 by default) measures on its own (a process's compiled
 * code differs from the next one's by a few points); the median of the processes is the figure.
 * MAIL_BENCH_ROUNDS sets each one's rounds (20); MAIL_BENCH_CONTROL=1 puts the parse alone on both
 * sides, to show what equal work reads as (about 0%).
 *
 * What is timed is the classifier as production runs it: compiled by tsc (bench/mail-build.ts) and
 * run on production's Node line (NODE_LTS_VERSION, which the bootstrap installs; the machine's Node
 * when it is missing, said in the output). MAIL_BENCH_TSX=1 times the TypeScript sources under tsx
 * on the machine's Node instead, for comparison: tsx's imports and function naming add a few
 * points on the classifier's side only (mailparser is plain JavaScript either way).
 */
const GUARD = 0.15;

/** Pure code on files: runs without the database, Temporal or the API (bench/index.ts starts none of them). */
export const standalone = true;

interface Runtime {
  node: string;
  codeDir?: string;
  label: string;
}

function runtime(): Runtime {
  if (process.env.MAIL_BENCH_TSX === '1') return { node: process.execPath, label: `TypeScript sources under tsx, Node ${process.version}` };
  const lts = nodeLtsBinary();
  const node = lts ?? process.execPath;
  const version = lts
    ? `v${NODE_LTS_VERSION}`
    : `${process.version} (Node ${NODE_LTS_VERSION} is not installed: run node scripts/bootstrap.js)`;
  return { node, codeDir: buildMailCode(), label: `compiled by tsc as production builds it, Node ${version}` };
}

function measureInOwnProcess(rt: Runtime): MailReadings {
  // tsx loads the harness and the corpus; the timed code is rt.codeDir's when it is set.
  const run = spawnSync(rt.node, ['--import', 'tsx', path.join(__dirname, 'mail-measure.ts')], {
    encoding: 'utf8',
    env: { ...process.env, MAIL_BENCH_CODE_DIR: rt.codeDir ?? '' },
  });
  if (run.status !== 0) throw new Error(`bench/mail-measure.ts failed (exit ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as MailReadings;
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

export default async function mailBench(): Promise<void> {
  const control = process.env.MAIL_BENCH_CONTROL === '1';
  const processes = Number(process.env.MAIL_BENCH_PROCESSES ?? 3);
  const shares: number[] = [];
  const rt = runtime();
  process.stdout.write(`classifier timed: ${rt.label}\n`);
  for (let p = 0; p < processes; p++) {
    const r = measureInOwnProcess(rt);
    const { parse, classify } = r.corpusMicros;
    const share = classify / parse - 1;
    shares.push(share);
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    process.stdout.write(
      `process ${p + 1}: ${r.messages} real messages, ${r.rounds} rounds, load average ${load}${control ? ', CONTROL: the parse on both sides' : ''}\n` +
        `  parse ${(parse / r.messages).toFixed(0)} µs a message, ${control ? 'the parse again' : 'parse + facts + classify'} ${(classify / r.messages).toFixed(0)} µs: ` +
        `facts and classification ${percent(share)} of the parse\n`,
    );
  }
  const share = median(shares);
  const holds = share <= GUARD;
  process.stdout.write(
    `median of ${processes} processes: facts and classification cost ${percent(share)} of the parse; ` +
      `guard (at most ${percent(GUARD)}) ${holds ? 'holds' : 'FAILS'}\n`,
  );
  if (!holds && !control) throw new Error(`facts and classification cost ${percent(share)} of the parse, more than ${percent(GUARD)}`);
}
