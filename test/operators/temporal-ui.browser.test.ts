import fs from 'node:fs';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Browser, Page } from 'playwright-core';
import { freePort } from '../../core/ports';
import { findTemporalCli } from '../../temporal/binaries';
import { searchAttributeKeys } from '../../temporal/search-attributes';
import { emailKeyQuery } from '../../services/operators/email-key';
import { ensureMaintenanceSchedules } from '../../services/maintenance/schedules';
import { maintenanceTasks } from '../../services/maintenance/tasks';
import { describeWithBrowser, launchChromium } from '../helpers/browser';
import { startWorld, type World } from '../sequences/support/world';
import { eventuallyDetails } from './support';

/**
 * The Temporal Web UI as `npm run dev` serves it (`temporal server start-dev` with its UI), driven
 * by headless Chromium: an operator finds an enrollment by the contact's email (the keyed
 * `ContactEmailKey` query the CLI prints) and reads its summary and current details. With
 * OPERATOR_SCREENSHOTS=1 the pages are saved as docs/operators/*.png (the runbook shows them).
 */
const SHOTS = process.env.OPERATOR_SCREENSHOTS === '1' ? path.resolve(__dirname, '..', '..', 'docs', 'operators') : null;

/** The text of the page and all its frames, once every pattern is found in it (or after 30 s). */
async function textOfFrames(page: Page, patterns: RegExp[]): Promise<string> {
  let text = '';
  for (let i = 0; i < 150; i++) {
    const parts = await Promise.all(page.frames().map((f) => f.innerText('body').catch(() => '')));
    text = parts.join('\n');
    if (patterns.every((p) => p.test(text))) break;
    await page.waitForTimeout(200);
  }
  return text;
}

describeWithBrowser('Temporal Web UI', () => {
  let w: World;
  let browser: Browser;
  let uiUrl: string;
  beforeAll(async () => {
    const uiPort = await freePort();
    const env = await TestWorkflowEnvironment.createLocal({
      server: {
        executable: { type: 'existing-path', path: findTemporalCli() },
        searchAttributes: searchAttributeKeys(),
        ui: true,
        uiPort,
        extraArgs: ['--log-level', 'error'],
      },
    });
    uiUrl = `http://127.0.0.1:${uiPort}`;
    w = await startWorld({ env });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    const env = w?.env;
    await w?.close();
    await env?.teardown();
  });

  it("finds an enrollment by the contact's email and shows its summary and current details", async () => {
    const seq = await w.dash.post('/api/v1/sequences', {
      name: 'Onboarding',
      status: 'active',
      steps: [
        { channel: 'email', delay: { value: 2, unit: 'days' }, subject: 'Welcome aboard', body: 'Hello' },
        { channel: 'email', delay: { value: 3, unit: 'days' }, subject: 'Follow up', body: 'Again' },
      ],
    });
    expect(seq.status).toBe(201);
    const other = await w.api.post(`/api/v1/sequences/${seq.body.data.id}/enrollments`, { email: 'bystander@example.com' });
    const res = await w.api.post(`/api/v1/sequences/${seq.body.data.id}/enrollments`, { email: 'ada@example.com' });
    expect([other.status, res.status]).toEqual([201, 201]);
    const workflowId = `enrollment-${res.body.data[0].id}`;
    await w.waitStarted(workflowId);
    await eventuallyDetails(w.env, workflowId, /^waiting for/);

    const query = await emailKeyQuery(w.tdb, { email: 'Ada@example.com' });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      // The list, filtered by the keyed email: only her enrollment, with its summary.
      await page.goto(`${uiUrl}/namespaces/default/workflows?query=${encodeURIComponent(query)}`);
      const row = page.getByRole('link', { name: workflowId });
      await row.waitFor({ timeout: 30_000 });
      await expect(page.getByText('enrollment-', { exact: false }).count()).resolves.toBeGreaterThanOrEqual(1);
      await expect(page.getByRole('link', { name: `enrollment-${other.body.data[0].id}` }).count()).resolves.toBe(0);
      if (SHOTS) {
        fs.mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: path.join(SHOTS, 'workflows-by-email.png') });
      }
      // Its page, tab User Metadata: the summary, the details and the current details (each
      // rendered from Markdown in its own frame, quotes made typographic).
      await row.click();
      await page.getByRole('link', { name: 'User Metadata' }).or(page.getByText('User Metadata')).first().click();
      const shown = await textOfFrames(page, [
        /Onboarding → ada@example\.com \(2 steps\)/,
        /waiting for step 1 \(email .Welcome aboard.\), due \d{4}-/,
      ]);
      expect(shown).toMatch(/Onboarding → ada@example\.com \(2 steps\)/);
      expect(shown).toMatch(/Enrollment of ada@example\.com in Onboarding/);
      expect(shown).toMatch(/waiting for step 1 \(email .Welcome aboard.\), due \d{4}-\d\d-\d\dT\d\d:\d\dZ \(step delay\)/);
      if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'enrollment.png') });
    } finally {
      await page.close();
    }
  });

  it('lists the maintenance Schedules, one per task', async () => {
    await ensureMaintenanceSchedules({ client: w.env.client }, { taskQueue: 'fss' });
    const page = await browser.newPage({ viewport: { width: 1400, height: 700 } });
    try {
      await page.goto(`${uiUrl}/namespaces/default/schedules`);
      for (const name of Object.keys(maintenanceTasks)) await page.getByText(`maintenance-${name}`).first().waitFor({ timeout: 30_000 });
      if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'schedules.png') });
    } finally {
      await page.close();
    }
  });
});
