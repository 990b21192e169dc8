import { client } from '../../helpers/http';
import { dateAhead } from '../../helpers/open-day';
import { useWorld } from '../../sequences/support/world';
import { eventuallyDetails, readMetadata, waitStarted } from '../../operators/support';
import { routingWorld, type RoutingWorld } from './world';

/**
 * `settings.routing.unbooked` (docs/forms.md "Routing"): one durable workflow per routed submission,
 * started through the outbox, on the time-skipping test server with the real activities. Without a
 * meeting the contact is enrolled once the hours have passed; a booking from the link ends it.
 */
const w = useWorld();
let r: RoutingWorld;
let sequenceId: string;

beforeAll(async () => {
  r = await routingWorld(w.tdb.db, w.app.baseUrl, w.team, 'unbooked-follow-up');
  const seq = await w.dash.post('/api/v1/sequences', {
    name: 'Missed you',
    status: 'active',
    steps: [{ channel: 'email', delay: { value: 1, unit: 'days' }, subject: 'Still keen?', body: 'Book a time' }],
  });
  expect(seq.status).toBe(201);
  sequenceId = seq.body.data.id;
  const form = await w.api.get(`/api/v1/forms/${r.formId}`);
  const patched = await w.api.patch(`/api/v1/forms/${r.formId}`, {
    settings: { routing: { ...form.body.data.settings.routing, unbooked: { after_hours: 24, sequence_id: sequenceId } } },
  });
  expect(patched.status).toBe(200);
});

async function routedSubmission(email: string): Promise<{ id: string; token: string }> {
  const res = await client(w.app.baseUrl).post(`/api/forms/${r.formSlug}/submissions`, {
    fields: { name: 'Lin', email, region: 'EMEA' },
  });
  expect(res.status).toBe(201);
  return { id: res.body.data.id, token: res.body.data.routing.prefill_token };
}

const enrollments = (email: string) =>
  w.tdb
    .db('sequence_enrollments as e')
    .join('contacts as c', 'c.id', 'e.contact_id')
    .where({ 'e.sequence_id': sequenceId, 'c.email': email })
    .select('e.status');

test('no meeting within the hours: the contact is enrolled in the sequence; the operator sees what it waits for', async () => {
  const sub = await routedSubmission('lin.unbooked@example.com');
  const id = `form-unbooked-${sub.id}`;
  await waitStarted(w.env, id);
  const m = await eventuallyDetails(w.env, id, /^waiting until/);
  expect(m.summary).toBe('Unbooked follow-up of a "Talk to sales" submission: sequence after 24 h without a meeting');
  expect(m.details).toContain(`\`/api/v1/submissions/${sub.id}\``);
  expect(m.details).toContain(sequenceId);
  expect(m.current).toMatch(/^waiting until \d{4}-\d\d-\d\dT.* for a meeting booked from the submission$/);
  // Before the hours pass, nothing is enrolled (the workflow is still waiting: observed above).
  expect(await enrollments('lin.unbooked@example.com')).toEqual([]);
  expect(await w.env.client.workflow.getHandle(id).result()).toBe('enrolled');
  expect(await enrollments('lin.unbooked@example.com')).toEqual([{ status: 'active' }]);
  expect((await readMetadata(w.env, id)).current).toMatch(/^no meeting booked: enrolling/);
});

test('a meeting booked from the link ends it: no enrollment', async () => {
  const sub = await routedSubmission('lin.booked@example.com');
  const id = `form-unbooked-${sub.id}`;
  await waitStarted(w.env, id);
  const d = dateAhead(2);
  const q = new URLSearchParams({ event_type_id: r.eventTypeId, start_date: d, end_date: d, timezone: 'UTC', routing_token: sub.token });
  const slot = (await client(w.app.baseUrl).get(`/api/calendar/availability?${q}`)).body.data.slots[3];
  const booked = await client(w.app.baseUrl).post('/api/calendar/book', {
    event_type_id: r.eventTypeId,
    start_time: slot.start,
    end_time: slot.end,
    timezone: 'UTC',
    name: 'Lin',
    email: 'lin.booked@example.com',
    routing_token: sub.token,
  });
  expect(booked.status).toBe(201);
  expect(await w.env.client.workflow.getHandle(id).result()).toBe('booked');
  expect((await readMetadata(w.env, id)).current).toBe('a meeting was booked from the submission: no follow-up');
  expect(await enrollments('lin.booked@example.com')).toEqual([]);
});
