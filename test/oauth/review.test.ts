import type { ParsedMail } from 'mailparser';
import { appReviewActivities } from '../../activities/app-review';
import { buildWorkerDeps } from '../../activities/deps';
import { client } from '../helpers/http';
import { withWorker } from '../helpers/temporal';
import { completeAppInput } from './helpers';
import { eventually } from '../helpers/smtp';
import { historyFacts, historyReaches } from '../helpers/history';
import { reviewWorkflowId } from '../../workflows/app-review/contract';
import { useApiWorld } from '../helpers/world';

const DAY = 86_400_000;

// The time-skipping server accepts our custom search attributes (TeamId, AppId) once registered.
// `team` is the developer's team, `other` the staff reviewer's.
const w = useApiWorld({ temporal: 'time-skipping', smtp: { mailFrom: 'Reviews <reviews@example.com>' }, other: true });
beforeAll(() => w.tdb.db('users').where({ id: w.other.userId }).update({ is_staff: true }));

const activities = () => appReviewActivities(buildWorkerDeps(w.app.config, w.tdb.db, w.app.deps.outbox, { mailer: w.mailer }));
const stageOf = async (id: string) => (await w.tdb.db('apps').where({ id }).first('review_stage'))!.review_stage as string;
const waitStage = (id: string, stage: string) => eventually(async () => (await stageOf(id)) === stage, `stage ${stage}`);
const mailsFor = (appId: string) => w.smtp.messages.filter((m: ParsedMail) => m.headers.get('x-app-id') === appId);
const decide = (id: string, stage_outcome: string, notes?: string) =>
  client(w.app.baseUrl, w.other.session).post(`/api/staff/apps/${id}/decision`, { stage_outcome, notes });

it('moves through every stage in order, with a status email at each change, and lists the approved app', async () => {
  await withWorker(w.env, activities(), async () => {
    const dash = client(w.app.baseUrl, w.team.session);
    const created = await dash.post('/api/v1/apps', completeAppInput({ name: 'Review Me' }));
    const id = created.body.data.id as string;
    expect((await decide(id, 'approve')).status).toBe(409); // not submitted yet
    const submitted = await dash.post(`/api/v1/apps/${id}/submit`);
    expect(submitted.status).toBe(200);
    expect(submitted.body.data.review_stage).toBe('submission');
    expect((await dash.post(`/api/v1/apps/${id}/submit`)).status).toBe(409); // already in review

    await waitStage(id, 'review');
    expect((await client(w.app.baseUrl, w.team.session).post(`/api/staff/apps/${id}/decision`, { stage_outcome: 'approve' })).status).toBe(
      403,
    );
    expect((await decide(id, 'approve', 'Config fine')).status).toBe(202);
    await waitStage(id, 'security_verification');
    expect((await decide(id, 'request_changes', 'Use narrower scopes')).status).toBe(202);
    await waitStage(id, 'changes_requested');
    expect((await dash.get(`/api/v1/apps/${id}`)).body.data.status).toBe('changes_requested');

    // Not listed yet.
    expect((await client(w.app.baseUrl).get(`/api/marketplace/apps/${id}`)).status).toBe(404);

    expect((await dash.patch(`/api/v1/apps/${id}`, { scopes: ['forms:read'] })).status).toBe(200);
    expect((await dash.post(`/api/v1/apps/${id}/submit`)).status).toBe(200);
    await waitStage(id, 'review');
    expect((await decide(id, 'approve')).status).toBe(202);
    await waitStage(id, 'security_verification');
    expect((await decide(id, 'approve', 'Welcome')).status).toBe(202);
    await waitStage(id, 'approved');

    const result = await w.env.client.workflow.getHandle(`app-review-${id}`).result();
    expect(result).toBe('approved');
    const listed = await client(w.app.baseUrl).get(`/api/marketplace/apps/${id}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toMatchObject({
      name: 'Review Me',
      scopes: ['forms:read'],
      category: 'CRM',
      installs: 0,
      rating: { average: null, count: 0 },
    });

    const expected = ['submission', 'review', 'security_verification', 'changes_requested', 'review', 'security_verification', 'approved'];
    const mails = await eventually(() => (mailsFor(id).length >= expected.length ? mailsFor(id) : undefined), 'status emails');
    expect(mails.map((m) => m.headers.get('x-app-review-stage'))).toEqual(expected);
    expect(mails.every((m) => m.to && JSON.stringify(m.to).includes(w.team.email))).toBe(true);
    expect(mails[3].text).toContain('Use narrower scopes');
    expect(mails[6].subject).toContain('Approved and listed');
    const events = await w.tdb.db('app_review_events').where({ app_id: id }).orderBy('created_at').pluck('stage');
    expect(events).toEqual(expected);
  });
});

it('reminds the staff when a review waits longer than 5 business days', async () => {
  await withWorker(w.env, activities(), async () => {
    const dash = client(w.app.baseUrl, w.team.session);
    const id = (await dash.post('/api/v1/apps', completeAppInput({ name: 'Slow Review' }))).body.data.id as string;
    expect((await dash.post(`/api/v1/apps/${id}/submit`)).status).toBe(200);
    await waitStage(id, 'review');
    // The workflow has reached the reminder timer of the review stage (5 business days: 5 calendar days or more).
    const handle = w.env.client.workflow.getHandle(reviewWorkflowId(id, 1));
    const reached = await historyReaches(handle, (f) => f.pendingTimers.length === 1, 'the review reminder timer');
    const [timer] = reached.pendingTimers;
    expect(timer.firesAt - timer.startedAt).toBeGreaterThanOrEqual(5 * DAY);
    await w.env.sleep('4 days'); // at most 4 calendar days: never 5 business days
    // The server's clock is past those 4 days, and the history shows the timer still pending and no reminder scheduled.
    expect(await w.env.currentTimeMs()).toBeGreaterThanOrEqual(timer.startedAt + 4 * DAY);
    const after = await historyFacts(handle);
    expect(after.firedTimers).toEqual([]);
    expect(after.pendingTimers.map((t) => t.timerId)).toEqual([timer.timerId]);
    expect(after.activities).not.toContain('sendReviewReminder');
    expect(w.smtp.messages.some((m) => m.headers.get('x-app-review-reminder') && m.headers.get('x-app-id') === id)).toBe(false);
    await w.env.sleep('6 days');
    const reminder = await eventually(
      () => w.smtp.messages.find((m) => m.headers.get('x-app-review-reminder') === 'review' && m.headers.get('x-app-id') === id),
      'staff reminder',
    );
    expect(JSON.stringify(reminder.to)).toContain(w.other.email);
    expect(reminder.subject).toContain('Slow Review');
    // The review still accepts a decision after the reminder.
    expect((await decide(id, 'reject', 'Broken links')).status).toBe(202);
    await waitStage(id, 'rejected');
    expect((await dash.get(`/api/v1/apps/${id}`)).body.data.status).toBe('rejected');
  });
});

it('after approval, a minor update goes live at once and a major change re-enters review while the approved version stays listed', async () => {
  await withWorker(w.env, activities(), async () => {
    const dash = client(w.app.baseUrl, w.team.session);
    const id = (await dash.post('/api/v1/apps', completeAppInput({ name: 'Living App' }))).body.data.id as string;
    await dash.post(`/api/v1/apps/${id}/submit`);
    await waitStage(id, 'review');
    await decide(id, 'approve');
    await waitStage(id, 'security_verification');
    await decide(id, 'approve');
    await waitStage(id, 'approved');
    expect((await dash.post(`/api/v1/apps/${id}/submit`)).status).toBe(409);

    expect((await dash.patch(`/api/v1/apps/${id}`, { short_description: 'Now even better' })).body.data.review_stage).toBe('approved');
    expect((await client(w.app.baseUrl).get(`/api/marketplace/apps/${id}`)).body.data.short_description).toBe('Now even better');

    const major = await dash.patch(`/api/v1/apps/${id}`, { scopes: ['forms:read', 'contacts:write'] });
    expect(major.status).toBe(200);
    expect(major.body.data).toMatchObject({ status: 'approved', review_round: 2, listed: true });
    await waitStage(id, 'review');
    const listed = (await client(w.app.baseUrl).get(`/api/marketplace/apps/${id}`)).body.data;
    expect(listed.scopes).toEqual(completeAppInput().scopes); // the approved version
    const desc = await w.env.client.workflow.getHandle(`app-review-${id}-r2`).describe();
    expect(desc.status.name).toBe('RUNNING');
    await decide(id, 'approve');
    await waitStage(id, 'security_verification');
    await decide(id, 'approve');
    await waitStage(id, 'approved');
    expect((await client(w.app.baseUrl).get(`/api/marketplace/apps/${id}`)).body.data.scopes).toEqual(['forms:read', 'contacts:write']);
  });
});
