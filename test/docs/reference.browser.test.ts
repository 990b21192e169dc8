import fs from 'node:fs';
import type { Page, Response } from 'playwright-core';
import { itWithBrowser } from '../helpers/browser';
import { useApiWorld } from '../helpers/world';

/**
 * /docs in headless Chromium: the renderer loads under the page's strict CSP (nothing refused),
 * shows an operation with its schema, the try-it panel calls this server with an API key, the
 * page refuses framing, and axe-core finds no serious or critical violation.
 */
jest.setTimeout(180_000);

// Without Chromium the three browser tests are reported as skipped (test/setup/global-setup.ts says why, or fails with REQUIRE_BROWSER=1).
const w = useApiWorld({ browser: true });

async function openDocs(hash = ''): Promise<{ page: Page; cspErrors: string[]; offOrigin: string[] }> {
  const context = await w.browser!.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const cspErrors: string[] = [];
  const offOrigin: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) cspErrors.push(m.text());
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(w.app.baseUrl) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) offOrigin.push(r.url());
  });
  const res = await page.goto(`${w.app.baseUrl}/docs${hash}`);
  expect(res?.status()).toBe(200);
  const csp = res!.headers()['content-security-policy'];
  expect(csp).toMatch(/script-src 'nonce-[^']+'(;|$)/);
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(csp).toMatch(/frame-ancestors 'none'/);
  expect(res!.headers()['x-frame-options']).toBe('DENY');
  return { page, cspErrors, offOrigin };
}

const op = (tag: string, method: string, path: string) => `api-1/tag/${tag}/${method}${path}`;

describe('/docs API reference', () => {
  itWithBrowser('renders an operation with its request schema, responses and errors, under the CSP, from our origin only', async () => {
    const { page, cspErrors, offOrigin } = await openDocs('#tag/forms/POST/api/v1/forms');
    const id = op('forms', 'POST', '/api/v1/forms');
    // The request body of POST /api/v1/forms names its fields, with their types.
    const title = page.locator(`[id="${id}.body.title"]`);
    await title.waitFor({ timeout: 90_000 });
    const section = page.locator(`[id="${id}"]`);
    const text = await section.innerText();
    expect(text).toMatch(/\btitle\s+Type:\s+string/);
    expect(text).toMatch(/\bfields\s+Type:\s+array/);
    await expect(section.getByText('validation_failed', { exact: false }).first().isVisible()).resolves.toBe(true);
    await expect(section.getByText('insufficient_scope', { exact: false }).first().isVisible()).resolves.toBe(true);
    // The response example (from the document) is shown.
    await expect(section.getByText('"created_at"', { exact: false }).first().isVisible()).resolves.toBe(true);
    expect(cspErrors).toEqual([]);
    expect(offOrigin).toEqual([]);
    await page.context().close();
  });

  itWithBrowser('has no serious or critical accessibility violations (axe-core)', async () => {
    const { page } = await openDocs('#tag/forms/POST/api/v1/forms');
    await page.locator(`[id="${op('forms', 'POST', '/api/v1/forms')}.body.title"]`).waitFor({ timeout: 90_000 });
    // Injected through the DevTools protocol, which the page's CSP does not govern.
    await page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const results = await page.evaluate(async () => {
      type Violation = { id: string; impact: string; nodes: Array<{ target: string[] }> };
      const axe = (window as unknown as { axe: { run: () => Promise<{ violations: Violation[] }> } }).axe;
      const r = await axe.run();
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, first: v.nodes[0]?.target.join(' ') }));
    });
    const bad = results.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad).toEqual([]);
    await page.context().close();
  });

  itWithBrowser('try-it sends a request to this server with an API key and shows the answer', async () => {
    const { page, cspErrors, offOrigin } = await openDocs('#tag/user/GET/api/v1/me');
    const section = page.locator(`[id="${op('user', 'GET', '/api/v1/me')}"]`);
    await section.waitFor({ timeout: 90_000 });
    await section
      .getByRole('button', { name: /Test Request/ })
      .first()
      .click();
    const token = page.locator('input[id^="scalar-client"][placeholder="Token"]');
    await token.waitFor({ timeout: 15_000 });
    await token.fill(w.team.apiKey);
    const send = page.getByRole('button', { name: /^Send/ }).first();
    await send.waitFor();
    // The client panel finishes opening after the input shows; a click that lands before it is dropped, so retry.
    let res: Response | undefined;
    for (let i = 0; i < 5 && !res; i++) {
      const sent = page
        .waitForRequest((r) => r.url().startsWith(`${w.app.baseUrl}/api/v1/me`) && r.method() === 'GET', { timeout: 3000 })
        .catch(() => undefined);
      await send.click();
      res = (await (await sent)?.response()) ?? undefined;
    }
    if (!res) throw new Error('the try-it panel sent no request');
    expect(res.request().headers().authorization).toBe(`Bearer ${w.team.apiKey}`);
    expect(res.status()).toBe(200);
    expect((await res.json()).data).toMatchObject({ id: w.team.userId, team_id: w.team.teamId, credential: 'api_key' });
    // The answer is shown in the panel.
    await page.getByText(w.team.teamId, { exact: false }).first().waitFor({ timeout: 15_000 });
    expect(cspErrors).toEqual([]);
    expect(offOrigin).toEqual([]);
    await page.context().close();
  });

  it('cannot be framed by another site', async () => {
    const res = await fetch(`${w.app.baseUrl}/docs`);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});
