import { spawnSync } from 'node:child_process';

/**
 * The native add-ons the service loads come as prebuilt binaries (npm here runs no install
 * scripts, so nothing is compiled). A prebuilt that asks for a newer Node-API than this Node has
 * does not fail politely: Node 20 throws and then crashes with a segmentation fault (argon2 0.45
 * asks for Node-API 10; Node 20 has 9; package.json pins 0.44.0). Loaded in a child process, so
 * that such a crash fails this test with its reason instead of killing a Jest worker elsewhere.
 */
const ADDONS: Array<{ name: string; use: string }> = [
  {
    name: 'argon2 (core/passwords.ts)',
    use: "const a = require('argon2'); a.hash('pw', { type: a.argon2id }).then((h) => a.verify(h, 'pw')).then((ok) => process.stdout.write(String(ok)))",
  },
];

test.each(ADDONS)('$name loads and works on this Node', ({ use }) => {
  const run = spawnSync(process.execPath, ['-e', use], { encoding: 'utf8', timeout: 60_000 });
  const why = `exit ${run.status}, signal ${run.signal}, Node ${process.version} with Node-API ${process.versions.napi}: ${run.stderr}`;
  expect({ status: run.status, signal: run.signal, out: run.stdout, why }).toEqual({ status: 0, signal: null, out: 'true', why });
});
