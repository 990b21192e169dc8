import type { Page } from 'playwright-core';
import { describeWithBrowser } from '../helpers/browser';
import { useApiWorld } from '../helpers/world';

/**
 * Multi-step forms and quizzes in headless Chromium, filled as a visitor would: a three-step form
 * with a logic jump with and without JavaScript, a visitor who leaves after step one (a partial
 * submission through the API), and a quiz that shows its score.
 */

/** Step 1: email and plan ("free" jumps to step 3). Step 2: company. Step 3: "why" (team plans only) and notes. */
const fields = [
  { type: 'email', label: 'Email', name: 'email', required: true, page: 0 },
  {
    type: 'radio',
    label: 'Plan',
    name: 'plan',
    required: true,
    options: [
      { label: 'Free plan', value: 'free' },
      { label: 'Team plan', value: 'team' },
    ],
    page: 0,
    logic: [{ when: { field: 'plan', operator: 'equals', value: 'free' }, action: 'jump', to: 2 }],
  },
  { type: 'text', label: 'Company', name: 'company', required: true, page: 1 },
  {
    type: 'text',
    label: 'Why a team plan',
    name: 'why',
    required: true,
    page: 2,
    logic: [{ when: { field: 'plan', operator: 'equals', value: 'team' }, action: 'show' }],
  },
  { type: 'textarea', label: 'Anything else', name: 'notes', page: 2 },
];

function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && !/status of 400/.test(m.text()) && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  return problems;
}

const progress = (page: Page) => page.locator('#form-progress-text').textContent();

// Without Chromium every test below is reported as skipped (and REQUIRE_BROWSER=1 fails the run).
describeWithBrowser('forms in Chromium', () => {
  const w = useApiWorld({ browser: true });

  async function makeForm(slug: string, body: Record<string, unknown> = {}) {
    const res = await w.api.post('/api/v1/forms', {
      title: 'Signup steps',
      slug,
      type: 'multi_step',
      status: 'published',
      fields,
      settings: { success_message: 'All done, thanks.', submit_label: 'Send' },
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body.data as { id: string };
  }

  describe('multi-step forms in Chromium', () => {
    it('without JavaScript: one step per page, the jump skips step 2 (and Back returns over it), resumable URL', async () => {
      const form = await makeForm('steps-nojs');
      const context = await w.browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${w.app.baseUrl}/f/steps-nojs?utm_source=news`);
      expect(await progress(page)).toBe('Step 1 of 3');
      expect(await page.getByLabel('Company').isVisible()).toBe(false);
      await page.getByLabel('Email').fill('free@example.com');
      await page.getByLabel('Free plan', { exact: true }).check();
      await Promise.all([page.waitForURL(/step=2/), page.getByRole('button', { name: 'Next' }).click()]);
      expect(page.url()).toMatch(/resume=[0-9a-f-]{36}/);
      expect(page.url()).toContain('utm_source=news');
      expect(await progress(page)).toBe('Step 3 of 3');
      expect(await page.getByLabel('Why a team plan').count()).toBe(1); // in the page, but not asked
      expect(await page.getByLabel('Why a team plan').isVisible()).toBe(false);
      await Promise.all([page.waitForURL(/step=0/), page.getByRole('button', { name: 'Back' }).click()]);
      expect(await progress(page)).toBe('Step 1 of 3');
      expect(await page.getByLabel('Email').inputValue()).toBe('free@example.com'); // resumed from the partial submission
      expect(await page.getByLabel('Free plan', { exact: true }).isChecked()).toBe(true);
      await Promise.all([page.waitForURL(/step=2/), page.getByRole('button', { name: 'Next' }).click()]);
      await page.getByLabel('Anything else').fill('just looking');
      await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Send' }).click()]);
      await page.getByText('All done, thanks.').waitFor();
      await context.close();

      const list = await w.api.get(`/api/v1/forms/${form.id}/submissions`);
      expect(list.body.meta.total).toBe(1);
      expect(list.body.data[0]).toMatchObject({
        status: 'completed',
        fields: { email: 'free@example.com', plan: 'free', notes: 'just looking' },
        metadata: { utm_source: 'news' },
      });
      expect(list.body.data[0].fields).not.toHaveProperty('company');
    });

    it('with JavaScript: steps change in place, Back keeps answers, the shown field is required, then the success message', async () => {
      const form = await makeForm('steps-js');
      const page = await w.browser.newPage();
      const problems = watchProblems(page);
      await page.goto(`${w.app.baseUrl}/f/steps-js`);
      await page.getByLabel('Email').fill('team@example.com');
      await page.getByLabel('Team plan', { exact: true }).check();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('Company').waitFor({ state: 'visible' });
      expect(await progress(page)).toBe('Step 2 of 3');
      expect(page.url()).not.toContain('step='); // no page load
      await page.getByRole('button', { name: 'Next' }).click();
      await page.locator('#f-company-error').waitFor({ state: 'visible' });
      await page.getByLabel('Company').fill('Acme');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('Why a team plan').waitFor({ state: 'visible' });
      expect(await progress(page)).toBe('Step 3 of 3');
      expect(await page.getByRole('button', { name: 'Send' }).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByLabel('Company').waitFor({ state: 'visible' });
      expect(await page.getByLabel('Company').inputValue()).toBe('Acme');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('Why a team plan').waitFor({ state: 'visible' });
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('#f-why-error').waitFor({ state: 'visible' });
      await page.getByLabel('Why a team plan').fill('we are five');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText('All done, thanks.').waitFor({ state: 'visible' });
      expect(problems).toEqual([]);
      await page.close();

      const list = await w.api.get(`/api/v1/forms/${form.id}/submissions`);
      expect(list.body.meta.total).toBe(1);
      expect(list.body.data[0]).toMatchObject({
        status: 'completed',
        fields: { email: 'team@example.com', plan: 'team', company: 'Acme', why: 'we are five' },
      });
    });

    it('a visitor who closes the page after step one leaves a partial submission visible through the API', async () => {
      const form = await makeForm('steps-leave');
      const page = await w.browser.newPage();
      await page.goto(`${w.app.baseUrl}/f/steps-leave?tracking_id=t-9`);
      await page.getByLabel('Email').fill('leaver@example.com');
      await page.getByLabel('Team plan', { exact: true }).check();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('Company').waitFor({ state: 'visible' });
      await page.close();

      const list = await w.api.get(`/api/v1/forms/${form.id}/submissions?status=partial`);
      expect(list.body.meta.total).toBe(1);
      expect(list.body.data[0]).toMatchObject({
        status: 'partial',
        fields: { email: 'leaver@example.com', plan: 'team' },
        metadata: { tracking_id: 't-9' },
      });
      expect((await w.api.get(`/api/v1/forms/${form.id}/submissions?status=completed`)).body.meta.total).toBe(0);
    });
  });

  describe('quiz in Chromium', () => {
    const quiz = {
      type: 'quiz',
      fields: [
        { type: 'email', label: 'Email', name: 'email', required: true },
        {
          type: 'radio',
          label: 'Capital of France',
          name: 'q1',
          options: [
            { label: 'Paris', value: 'paris', correct: true },
            { label: 'Lyon', value: 'lyon' },
          ],
        },
        {
          type: 'radio',
          label: 'Largest planet',
          name: 'q2',
          options: [
            { label: 'Jupiter', value: 'jupiter', points: 2 },
            { label: 'Mars', value: 'mars' },
          ],
        },
      ],
      settings: { show_score: true, success_message: 'Thanks for playing.', submit_label: 'Send' },
    };

    it.each([
      ['with JavaScript', true],
      ['without JavaScript', false],
    ])('shows the score on the thank-you page (%s)', async (_name, js) => {
      const slug = `quiz-${js ? 'js' : 'nojs'}`;
      const form = await makeForm(slug, quiz);
      const context = await w.browser.newContext({ javaScriptEnabled: js });
      const page = await context.newPage();
      await page.goto(`${w.app.baseUrl}/f/${slug}`);
      await page.getByLabel('Email').fill(`${slug}@example.com`);
      await page.getByLabel('Paris').check();
      await page.getByLabel('Mars').check();
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText('You scored 1 out of 3.').waitFor({ state: 'visible' });
      expect(await page.getByText('Thanks for playing.').isVisible()).toBe(true);
      await context.close();
      const list = await w.api.get(`/api/v1/forms/${form.id}/submissions`);
      expect(list.body.data[0]).toMatchObject({ status: 'completed', score: 1, max_score: 3 });
    });
  });
});
