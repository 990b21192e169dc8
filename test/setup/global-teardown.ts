import fs from 'node:fs';
import { Client } from 'pg';
import { ANSWERS_ENV } from './operation-coverage';

export default async function globalTeardown(): Promise<void> {
  const template = (globalThis as any).__fssTemplate as string | undefined;
  if (template && process.env.FSS_TEST_ADMIN_URL) {
    const admin = new Client({ connectionString: process.env.FSS_TEST_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`).catch(() => undefined);
    await admin.end();
  }
  if (process.env.FSS_TEST_WORKFLOW_BUNDLE) fs.rmSync(process.env.FSS_TEST_WORKFLOW_BUNDLE, { force: true });
  // After the reporters read it (operation-coverage-reporter.js).
  if (process.env[ANSWERS_ENV]) fs.rmSync(process.env[ANSWERS_ENV], { recursive: true, force: true });
  const pg = (globalThis as any).__fssEmbeddedPg as { stop(): Promise<void> } | undefined;
  if (pg) await pg.stop();
}
