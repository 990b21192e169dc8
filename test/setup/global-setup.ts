import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { Client } from 'pg';
import { ensureEmbeddedPostgres } from '../../db/embedded';
import { migrateLatest } from '../../db/migrate';
import { findTestServer } from '../../temporal/binaries';
import { chromiumPath } from '../helpers/browser-path';
import { ANSWERS_ENV } from './operation-coverage';

const ROOT = path.resolve(__dirname, '..', '..');

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/**
 * Once per `jest` run: a Postgres server (DATABASE_URL's, else an embedded one on a free port),
 * a migrated template database that every test file clones, one workflow bundle, and the folder
 * where the test apps record the operations' answers (test/setup/operation-coverage.ts).
 */
export default async function globalSetup(): Promise<void> {
  process.env.NODE_ENV = 'test';
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    adminUrl = withDatabase(process.env.DATABASE_URL, 'postgres');
  } else {
    const pg = await ensureEmbeddedPostgres({ dataDir: path.join(ROOT, '.data'), name: 'test' });
    (globalThis as any).__fssEmbeddedPg = pg;
    adminUrl = pg.adminUrl;
  }
  const template = `fss_tmpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.end();
  await migrateLatest(withDatabase(adminUrl, template));
  process.env.FSS_TEST_ADMIN_URL = adminUrl;
  process.env.FSS_TEST_TEMPLATE = template;
  (globalThis as any).__fssTemplate = template;

  findTestServer(); // fail early, with the install hint, when the binary is missing

  const cacheDir = path.join(ROOT, '.cache');
  fs.mkdirSync(cacheDir, { recursive: true });
  const bundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: quietLogger });
  const bundlePath = path.join(cacheDir, `workflow-bundle-${process.pid}.js`);
  fs.writeFileSync(bundlePath, bundle.code);
  process.env.FSS_TEST_WORKFLOW_BUNDLE = bundlePath;

  const answers = path.join(cacheDir, `operation-answers-${process.pid}`);
  fs.rmSync(answers, { recursive: true, force: true });
  fs.mkdirSync(answers);
  process.env[ANSWERS_ENV] = answers;

  if (!chromiumPath()) {
    const msg =
      'Chromium was not found: the browser tests are SKIPPED (counted as skipped in the summary). Install it with `apt-get install chromium`, or set CHROMIUM_PATH.';
    if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1: ${msg}`);
    process.stderr.write(`\n\n**********\n${msg}\n**********\n\n`);
  }
}

const quietLogger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (m: string) => process.stderr.write(`[bundle] ${m}\n`),
  error: (m: string) => process.stderr.write(`[bundle] ${m}\n`),
  log: () => undefined,
};
