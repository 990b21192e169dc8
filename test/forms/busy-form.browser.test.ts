import { describeWithBrowser } from '../helpers/browser';
import { createTestTeam, type TestTeam } from '../helpers/fixtures';
import { http } from '../helpers/http';
import { publishedEmailForm, rateLimitedEnv } from '../helpers/rate-limited';
import { useApiWorld } from '../helpers/world';

/**
 * A popular form loses no respondent (docs/decisions.md "Per-form budget"): at its budget the
 * form answers 429 with Retry-After; the page keeps every answer and sends again by itself with
 * JavaScript, or shows the answers again with a clear message without it. Once the window passes
 * the submission is accepted with every answer. The window is 4 s here (RATE_LIMIT_SUBMIT_PER_TARGET_WINDOW_SECONDS).
 */
const BUDGET = 3;
const WINDOW_S = 4;
let ipSeq = 0;

const w = useApiWorld({
  env: rateLimitedEnv({
    RATE_LIMIT_SUBMIT_PER_TARGET_PER_MINUTE: String(BUDGET),
    RATE_LIMIT_SUBMIT_PER_TARGET_WINDOW_SECONDS: String(WINDOW_S),
  }),
  // The per-form budget scales with the plan (PLAN_TARGET_SCALE): a free team has the base budget.
  team: { plan: 'free' },
  browser: true,
});

const form = (slug: string, owner: TestTeam = w.team) =>
  publishedEmailForm(w.app.baseUrl, owner, slug, {
    fields: [
      { type: 'email', label: 'Email', name: 'email', required: true },
      { type: 'textarea', label: 'Why', name: 'why' },
    ],
    settings: { success_message: 'You are on the list.' },
  });

/** Spend the form's budget from other visitors (each from its own address), by the name the page posts to (its id). */
async function fillBudget(idOrSlug: string): Promise<void> {
  for (let i = 0; i < BUDGET + 1; i++) {
    await http(w.app.baseUrl, 'post', `/api/forms/${idOrSlug}/submissions`, {
      body: { fields: { email: `crowd${++ipSeq}@example.com` } },
      headers: { 'x-forwarded-for': `198.51.100.${ipSeq}` },
    });
  }
}

const answersOf = (formId: string, email: string) =>
  w.tdb.db('submissions').where({ form_id: formId }).whereRaw(`fields->>'email' = ?`, [email]).select('fields', 'status');

test('the per-form budget answers 429 with Retry-After, and scales with the plan', async () => {
  await form('busy-api');
  await fillBudget('busy-api');
  const res = await http(w.app.baseUrl, 'post', '/api/forms/busy-api/submissions', { body: { fields: { email: 'late@example.com' } } });
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(res.body.error.code).toBe('rate_limited');
  // A pro team's form has five times the budget (api/http/rate-limit.ts PLAN_TARGET_SCALE).
  const pro = await createTestTeam(w.tdb.db, { plan: 'pro' });
  await form('busy-pro', pro);
  const statuses: number[] = [];
  for (let i = 0; i < BUDGET * 5 + 1; i++) {
    const r = await http(w.app.baseUrl, 'post', '/api/forms/busy-pro/submissions', {
      body: { fields: { email: `pro${i}@example.com` } },
      headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
    });
    statuses.push(r.status);
  }
  expect(statuses.filter((s) => s === 201)).toHaveLength(BUDGET * 5);
  expect(statuses.at(-1)).toBe(429);
});

describeWithBrowser('a busy form in the browser', () => {
  it('with JavaScript: keeps the answers, says so, and sends them again by itself once the window passes', async () => {
    const formId = await form('busy-js');
    const page = await w.browser.newPage();
    await page.goto(`${w.app.baseUrl}/f/busy-js`);
    await page.getByLabel('Email').fill('patient@example.com');
    await page.getByLabel('Why').fill('I want in early');
    await fillBudget(formId);
    const limited = page.waitForResponse((r) => r.url().includes('/submissions') && r.status() === 429);
    await page.getByRole('button', { name: 'Submit' }).click();
    await limited;
    await page.getByText('Your answers are kept and will be sent again').waitFor();
    await page.getByText('You are on the list.').waitFor({ timeout: (WINDOW_S + 10) * 1000 });
    await page.close();
    expect(await answersOf(formId, 'patient@example.com')).toEqual([
      { status: 'completed', fields: { email: 'patient@example.com', why: 'I want in early' } },
    ]);
  });

  it('without JavaScript: shows the answers again with a clear message; sent again after Retry-After, accepted', async () => {
    const formId = await form('busy-nojs');
    const context = await w.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${w.app.baseUrl}/f/busy-nojs`);
    await page.getByLabel('Email').fill('steady@example.com');
    await page.getByLabel('Why').fill('Keep my words');
    await fillBudget(formId);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/submissions')),
      page.getByRole('button', { name: 'Submit' }).click(),
    ]);
    expect(answer.status()).toBe(429);
    const retryAfter = Number(answer.headers()['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    await page.getByText('Many people are answering this form right now').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe('steady@example.com');
    expect(await page.getByLabel('Why').inputValue()).toBe('Keep my words');
    // The person waits as the page asks (Retry-After), then sends the same answers again.
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Submit' }).click()]);
    await page.getByText('You are on the list.').waitFor();
    await context.close();
    expect(await answersOf(formId, 'steady@example.com')).toEqual([
      { status: 'completed', fields: { email: 'steady@example.com', why: 'Keep my words' } },
    ]);
  });
});
