import type { SubmissionsRow } from '../../db/tables';
import { http } from '../helpers/http';
import { publishForm } from '../fixtures/forms';
import { useApiWorld } from '../helpers/world';

/**
 * The public submission has two write paths: one autocommit statement (contact, submission,
 * events) when the team has no active webhook subscription, and a transaction with the outbox
 * (recordEvent's fan-out) when it has one. Both must store the same rows.
 */
let form: { id: string; slug: string };

const w = useApiWorld({ other: true });
beforeAll(async () => {
  form = await publishForm(w.api, {
    title: 'Paths form',
    fields: [{ type: 'number', label: 'Seats', name: 'seats' }],
    settings: { qualification: { match: 'all', rules: [{ field: 'seats', operator: 'gte', value: 50 }] } },
  });
});

const submit = (body: unknown, slug = form.slug) => http(w.app.baseUrl, 'post', `/api/forms/${slug}/submissions`, { body });

async function subscription(teamId: string, status: 'active' | 'disabled', formId: string | null = null): Promise<string> {
  const [row] = await w.tdb
    .db('webhook_subscriptions')
    .insert({
      team_id: teamId,
      url: 'http://127.0.0.1:9/hook',
      events: ['submission.created', 'submission.qualified'],
      form_id: formId,
      status,
      secret_enc: 'v1.never.opened.here', // no delivery is attempted in this suite
    })
    .returning('id');
  return row.id;
}

async function stored(id: string) {
  const submission = await w.tdb.db('submissions').where({ id }).first();
  const events = await w.tdb.db('events').whereRaw(`payload->'data'->>'submission_id' = ?`, [id]).orderBy('type');
  const deliveries = await w.tdb.db('webhook_deliveries').whereIn(
    'event_id',
    events.map((e) => e.id),
  );
  const outbox = await w.tdb.db('outbox').whereIn(
    'workflow_id',
    deliveries.map((d) => `webhook-${d.subscription_id}-${d.event_id}`),
  );
  const counters = await w.tdb.db('submission_counts').where({ form_id: form.id }).sum({ n: 'n' }).first();
  return { submission, events, deliveries, outbox, counted: Number(counters?.n) };
}

function expectPayloads(events: Array<{ type: string; payload: Record<string, unknown> }>, submission: SubmissionsRow) {
  expect(events.map((e) => e.type)).toEqual(['submission.created', 'submission.qualified']);
  for (const e of events) {
    expect(e.payload).toEqual({
      event: e.type,
      timestamp: expect.any(String),
      data: {
        form_id: form.id,
        form_title: 'Paths form',
        form_slug: form.slug,
        submission_id: submission.id,
        submission_data: submission.fields,
        submitted_at: submission.submitted_at.toISOString(),
        metadata: submission.metadata,
      },
    });
  }
}

describe('public submission write paths', () => {
  it('without an active subscription: submission, contact, both events and the counter; no delivery', async () => {
    await subscription(w.team.teamId, 'disabled');
    await subscription(w.other.teamId, 'active'); // another team's subscription changes nothing
    const res = await submit({ fields: { email: 'fast@example.com', seats: 60 } });
    expect(res.status).toBe(201);
    const s = await stored(res.body.data.id);
    expect(s.submission).toMatchObject({ status: 'completed', qualified: true, fields: { email: 'fast@example.com', seats: 60 } });
    const contact = await w.tdb.db('contacts').where({ id: s.submission!.contact_id! }).first();
    expect(contact).toMatchObject({ team_id: w.team.teamId, email: 'fast@example.com' });
    expectPayloads(s.events, s.submission!);
    expect(s.events.every((e) => e.team_id === w.team.teamId && e.form_id === form.id)).toBe(true);
    expect(s.deliveries).toHaveLength(0);
    expect(s.counted).toBe(1);
  });

  it('a partial save writes the submission and its contact, and no event', async () => {
    const res = await submit({ fields: { email: 'partial@example.com' }, status: 'partial' });
    expect(res.status).toBe(201);
    const s = await stored(res.body.data.id);
    expect(s.submission).toMatchObject({ status: 'partial', qualified: false });
    expect(s.submission!.contact_id).toEqual(expect.any(String));
    expect(s.events).toHaveLength(0);
  });

  it('with an active subscription: the same rows plus one delivery and one outbox row per event', async () => {
    const sub = await subscription(w.team.teamId, 'active', form.id);
    const res = await submit({ fields: { email: 'hooked@example.com', seats: 70 } });
    expect(res.status).toBe(201);
    const s = await stored(res.body.data.id);
    expect(s.submission).toMatchObject({ status: 'completed', qualified: true });
    expect(s.submission!.contact_id).toEqual(expect.any(String));
    expectPayloads(s.events, s.submission!);
    expect(s.deliveries.map((d) => [d.subscription_id, d.event_type]).sort()).toEqual([
      [sub, 'submission.created'],
      [sub, 'submission.qualified'],
    ]);
    expect(s.outbox).toHaveLength(2);
    await w.tdb.db('webhook_subscriptions').where({ id: sub }).update({ status: 'disabled' });
  });

  it('a form unpublished by someone else within the cache time gets 404 and nothing is written', async () => {
    const res = await w.api.post('/api/v1/forms', {
      title: 'Short-lived',
      status: 'published',
      fields: [{ type: 'email', label: 'Email', name: 'email' }],
    });
    const first = await submit({ fields: { email: 'one@example.com' } }, res.body.data.slug);
    expect(first.status).toBe(201); // the form is now cached by this process
    // Another process archives it: no in-process invalidation.
    await w.tdb.db('forms').where({ id: res.body.data.id }).update({ status: 'archived' });
    const before = [await w.tdb.db('submissions').count({ n: '*' }).first(), await w.tdb.db('contacts').count({ n: '*' }).first()];
    const second = await submit({ fields: { email: 'two@example.com' } }, res.body.data.slug);
    expect(second.status).toBe(404);
    expect(second.body.error.code).toBe('not_found');
    expect([await w.tdb.db('submissions').count({ n: '*' }).first(), await w.tdb.db('contacts').count({ n: '*' }).first()]).toEqual(before);
  });

  it('an edit through the API is seen by the next submission at once', async () => {
    const res = await w.api.post('/api/v1/forms', {
      title: 'Edited',
      status: 'published',
      fields: [{ type: 'email', label: 'Email', name: 'email' }],
    });
    expect((await submit({ fields: { email: 'a@example.com' } }, res.body.data.slug)).status).toBe(201);
    const patched = await w.api.patch(`/api/v1/forms/${res.body.data.id}`, {
      fields: [
        { type: 'email', label: 'Email', name: 'email' },
        { type: 'text', label: 'Company', name: 'company', required: true },
      ],
    });
    expect(patched.status).toBe(200);
    const missing = await submit({ fields: { email: 'b@example.com' } }, res.body.data.slug);
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].path).toBe('fields.company');
    expect((await w.api.delete(`/api/v1/forms/${res.body.data.id}`)).status).toBe(204);
    expect((await submit({ fields: { email: 'c@example.com', company: 'x' } }, res.body.data.slug)).status).toBe(404);
  });
});
