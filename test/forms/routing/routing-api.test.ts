import { useApiWorld } from '../../helpers/world';
import { client } from '../../helpers/http';
import { dateAhead } from '../../helpers/open-day';
import { routingWorld, type RoutingWorld } from './world';
import { zMeetingBookedEvent, zSubmissionRoutedEvent } from '../../../services/webhooks/payload-schemas';

/**
 * Routing a submission (docs/forms.md "Routing"): rules checked on save, the routed target on the
 * receipt and the submission, the prefill token narrowing the slots to the routed hosts, and the
 * booking linked to its submission with `submission.routed` and `meeting.booked` recorded.
 */
const w = useApiWorld();
let r: RoutingWorld;
let pub: ReturnType<typeof client>;

beforeAll(async () => {
  r = await routingWorld(w.tdb.db, w.app.baseUrl, w.team, 'talk-to-sales');
  pub = client(w.app.baseUrl);
});

const submit = (fields: Record<string, unknown>) => pub.post(`/api/forms/${r.formSlug}/submissions`, { fields });
const slotsWith = (token?: string) => {
  const d = dateAhead(3);
  const q = new URLSearchParams({ event_type_id: r.eventTypeId, start_date: d, end_date: d, timezone: 'UTC' });
  if (token) q.set('routing_token', token);
  return pub.get(`/api/calendar/availability?${q}`);
};

describe('routing rules on save', () => {
  it('refuses an unknown field, an unknown event type and a host not on the page, each with its path', async () => {
    const stranger = (await w.api.post('/api/v1/forms', { title: 'x', fields: [] })).body.data.id as string;
    const res = await w.api.patch(`/api/v1/forms/${r.formId}`, {
      settings: {
        routing: {
          rules: [
            { conditions: [{ field: 'nope', operator: 'is_set' }], target: { type: 'event_type', event_type_id: stranger } },
            {
              conditions: [{ field: 'region', operator: 'in', value: ['EMEA'] }],
              target: { type: 'event_type', event_type_id: r.eventTypeId, host_user_ids: [stranger] },
            },
          ],
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'body.settings.routing.rules.0.conditions.0.field',
        'body.settings.routing.rules.0.target.event_type_id',
        'body.settings.routing.rules.1.target.host_user_ids.0',
      ]),
    );
    const form = await w.api.get(`/api/v1/forms/${r.formId}`);
    expect(form.body.data.settings.routing.rules).toHaveLength(2);
  });

  it('refuses an operator outside the shared condition vocabulary', async () => {
    const res = await w.api.patch(`/api/v1/forms/${r.formId}`, {
      settings: {
        routing: { rules: [{ conditions: [{ field: 'region', operator: 'matches' }], target: { type: 'message', message: 'x' } }] },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toContain('body.settings.routing.rules.0.conditions.0.operator');
  });
});

describe('a routed submission', () => {
  it('answers its target with a booking URL and prefill, and the submission records it', async () => {
    const res = await submit({ name: 'Ada Lovelace', email: 'ada@example.com', region: 'EMEA' });
    expect(res.status).toBe(201);
    const routing = res.body.data.routing;
    expect(routing).toMatchObject({
      target: 'event_type',
      rule: 0,
      event_type_id: r.eventTypeId,
      host_user_ids: r.emea,
      prefill: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    expect(routing.booking_url).toBe(`${w.app.baseUrl}/book/${r.pageSlug}?event_type=${r.eventTypeId}&prefill=${routing.prefill_token}`);
    const stored = await w.api.get(`/api/v1/submissions/${res.body.data.id}`);
    expect(stored.body.data.routing).toMatchObject({ target: 'event_type', host_user_ids: r.emea });
    expect(stored.body.data.routing.booking_url).not.toContain('prefill');
    const event = await w.tdb.db('events').where({ type: 'submission.routed', form_id: r.formId }).orderBy('created_at', 'desc').first();
    expect(event?.payload.data).toMatchObject({
      submission_id: res.body.data.id,
      routing: { target: 'event_type', event_type_id: r.eventTypeId },
    });
    // The body a subscriber gets is the one the OpenAPI document's `webhooks` section describes.
    expect(zSubmissionRoutedEvent.safeParse(event?.payload).error).toBeUndefined();
    const doc = await pub.get('/api/v1/openapi.json');
    expect(Object.keys(doc.body.webhooks)).toEqual(expect.arrayContaining(['submission.routed', 'meeting.booked']));
  });

  it('routes by the first rule that holds, else the fallback', async () => {
    const us = await submit({ name: 'Bo', email: 'bo@example.com', region: 'US' });
    expect(us.body.data.routing).toMatchObject({ target: 'url', rule: 1, url: 'https://us.example.com/welcome' });
    const other = await submit({ name: 'Cy', email: 'cy@example.com', region: 'APAC' });
    expect(other.body.data.routing).toMatchObject({ target: 'message', rule: null, message: 'We will write to you soon.' });
  });

  it("offers only the routed hosts' times with the token, and books one linked to the submission", async () => {
    const sub = await submit({ name: 'Ada Lovelace', email: 'ada2@example.com', region: 'EMEA' });
    const token = sub.body.data.routing.prefill_token as string;
    const all = await slotsWith();
    const routed = await slotsWith(token);
    expect(routed.status).toBe(200);
    expect(Math.max(...all.body.data.slots.map((s: { available_host_count: number }) => s.available_host_count))).toBe(4);
    expect(Math.max(...routed.body.data.slots.map((s: { available_host_count: number }) => s.available_host_count))).toBe(2);
    const slot = routed.body.data.slots[5];
    const book = await pub.post('/api/calendar/book', {
      event_type_id: r.eventTypeId,
      start_time: slot.start,
      end_time: slot.end,
      timezone: 'UTC',
      name: 'Ada Lovelace',
      email: 'ada2@example.com',
      routing_token: token,
    });
    expect(book.status).toBe(201);
    const meeting = book.body.data;
    expect(r.emea).toContain(meeting.host_user_id);
    expect(meeting).toMatchObject({ source: 'routing', form_id: r.formId, submission_id: sub.body.data.id });
    expect(meeting.field_values).toMatchObject({ region: 'EMEA', name: 'Ada Lovelace' });
    const booked = await w.tdb
      .db('events')
      .where({ type: 'meeting.booked' })
      .whereRaw(`payload->'data'->>'meeting_id' = ?`, [meeting.id])
      .first();
    expect(booked?.payload.data).toMatchObject({ source: 'routing', form_id: r.formId, submission_id: sub.body.data.id });
    expect(zMeetingBookedEvent.safeParse(booked?.payload).error).toBeUndefined();
  });

  it("books without JavaScript: the booking page's form post books the routed time, linked; a forged token is refused on a page", async () => {
    const sub = await submit({ name: 'Flo', email: 'flo@example.com', region: 'EMEA' });
    const token = sub.body.data.routing.prefill_token as string;
    const slot = (await slotsWith(token)).body.data.slots[2];
    const post = (prefill: string) =>
      fetch(`${w.app.baseUrl}/book/${r.pageSlug}/routed`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          prefill,
          event_type_id: r.eventTypeId,
          slot: `${slot.start}/${slot.end}`,
          name: 'Flo',
          email: 'flo@example.com',
        }),
        redirect: 'manual',
      });
    const res = await post(token);
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toContain('text/html');
    const at = new Date(slot.start).toISOString();
    expect(await res.text()).toContain(`Your meeting is booked for ${at.slice(0, 10)} ${at.slice(11, 16)} UTC.`);
    const meeting = await w.tdb.db('meetings').where({ submission_id: sub.body.data.id }).first();
    expect(meeting).toMatchObject({ source: 'routing', form_id: r.formId, attendee_email: 'flo@example.com' });
    expect(new Date(meeting!.start_time).toISOString()).toBe(at);
    expect(r.emea).toContain(meeting!.host_user_id);

    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    const retry = await post(forged);
    expect(retry.status).toBeGreaterThanOrEqual(400);
    expect(retry.status).toBeLessThan(500);
    const page = await retry.text();
    expect(page).toContain('This time could not be booked');
    expect(page).toContain(`/book/${r.pageSlug}?event_type=${r.eventTypeId}&amp;prefill=${forged}`);
    expect(await w.tdb.db('meetings').where({ submission_id: sub.body.data.id })).toHaveLength(1);
  });

  it('refuses a forged or mismatched token with a 400 on the token', async () => {
    const sub = await submit({ name: 'Di', email: 'di@example.com', region: 'EMEA' });
    const token = sub.body.data.routing.prefill_token as string;
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    const res = await slotsWith(forged);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('query.routing_token');
    const other = await client(w.app.baseUrl, w.team.apiKey).post(`/api/v1/scheduling-pages/${r.pageId}/event-types`, { title: 'Other' });
    const d = dateAhead(3);
    const mismatch = await pub.get(
      `/api/calendar/availability?${new URLSearchParams({ event_type_id: other.body.data.id, start_date: d, end_date: d, timezone: 'UTC', routing_token: token })}`,
    );
    expect(mismatch.status).toBe(400);
  });
});

describe("the contact's timeline", () => {
  it('shows the routed submission and the meeting booked from it, linked', async () => {
    const sub = await submit({ name: 'Eve', email: 'eve@example.com', region: 'EMEA' });
    const token = sub.body.data.routing.prefill_token as string;
    const slot = (await slotsWith(token)).body.data.slots[8];
    const book = await pub.post('/api/calendar/book', {
      event_type_id: r.eventTypeId,
      start_time: slot.start,
      end_time: slot.end,
      timezone: 'UTC',
      name: 'Eve',
      email: 'eve@example.com',
      routing_token: token,
    });
    expect(book.status).toBe(201);
    const contact = await w.api.get(`/api/v1/contacts/${book.body.data.contact_id}`);
    expect(contact.status).toBe(200);
    const timeline = contact.body.data.timeline;
    expect(timeline.map((e: { type: string }) => e.type).sort()).toEqual(['meeting.booked', 'submission.routed']);
    expect(timeline.find((e: { type: string }) => e.type === 'meeting.booked').meeting).toMatchObject({
      id: book.body.data.id,
      submission_id: sub.body.data.id,
      form_id: r.formId,
      source: 'routing',
    });
    expect(timeline.find((e: { type: string }) => e.type === 'submission.routed').submission).toMatchObject({
      id: sub.body.data.id,
      form_id: r.formId,
      target: 'event_type',
    });
  });
});
