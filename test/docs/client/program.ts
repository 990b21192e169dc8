/**
 * An integrator's program, typed from the OpenAPI document alone: `openapi-typescript` turns the
 * document into `schema.generated.d.ts` (test/docs/typed-client.test.ts does it on each run), and
 * `openapi-fetch` uses those types. tsc checks this file against them, then the test runs it
 * against the real server. A document that drifts from what the server does fails one or the other.
 */
import createClient from 'openapi-fetch';
import type { paths } from './schema.generated';

export interface Outcome {
  formId: string;
  submissionId: string;
  /** The visitor's address the program passed as a server caller, as the submission recorded it. */
  visitorIp: string | null | undefined;
  listedSubmissionIds: string[];
  meetingId: string;
  meetingStart: string;
  enrollmentStatus: string;
}

function must<T>(r: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (r.data === undefined) throw new Error(`${what}: HTTP ${r.response.status} ${JSON.stringify(r.error)}`);
  return r.data;
}

/** `days`: the first and last date (YYYY-MM-DD, UTC) to look for a free slot in; the caller chooses them. */
export async function run(baseUrl: string, apiKey: string, sequenceId: string, days: { from: string; to: string }): Promise<Outcome> {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });

  // 1. A form with an email field, published.
  const form = must(
    await api.POST('/api/v1/forms', {
      body: {
        title: 'Typed client form',
        status: 'published',
        fields: [{ type: 'email', label: 'Email', name: 'email', required: true }],
      },
    }),
    'create form',
  ).data;

  // 2. A visitor submits it. The public endpoint needs no credential; this program submits from its
  // server for the visitor, so it sends its key (counted against the key, not the server's address)
  // and passes the visitor's address and user agent (recorded, and limited per visitor).
  const submitted = must(
    await api.POST('/api/forms/{id_or_slug}/submissions', {
      params: {
        path: { id_or_slug: form.id },
        header: { 'X-Visitor-IP': '198.51.100.7', 'X-Visitor-User-Agent': 'Mozilla/5.0 (X11; Linux x86_64)' },
      },
      body: { fields: { email: 'ada@example.com' } },
    }),
    'submit',
  );
  // A JSON post gets the JSON receipt (the HTML page is for the no-JS form post).
  if (typeof submitted === 'string') throw new Error('submit: expected the JSON receipt');
  const receipt = submitted.data;

  const recorded = must(await api.GET('/api/v1/submissions/{id}', { params: { path: { id: receipt.id } } }), 'read submission').data;

  // 3. The form's submissions.
  const submissions = must(
    await api.GET('/api/v1/forms/{form_id}/submissions', { params: { path: { form_id: form.id }, query: { per_page: '10' } } }),
    'list submissions',
  );

  // 4. A booking page with a 30-minute event type, its free slots, and a booking of the first one.
  const page = must(await api.POST('/api/v1/scheduling-pages', { body: { title: 'Intro calls', status: 'published' } }), 'page').data;
  const eventType = must(
    await api.POST('/api/v1/scheduling-pages/{id}/event-types', {
      params: { path: { id: page.id } },
      body: { title: 'Intro call', duration_minutes: 30, min_notice_minutes: 0 },
    }),
    'event type',
  ).data;
  const availability = must(
    await api.GET('/api/calendar/availability', {
      params: { query: { event_type_id: eventType.id, start_date: days.from, end_date: days.to, timezone: 'UTC' } },
    }),
    'availability',
  );
  if (!('data' in availability)) throw new Error('availability: expected the event-type variant');
  const slot = availability.data.slots[0];
  if (!slot) throw new Error('availability: no free slot');
  const booked = must(
    await api.POST('/api/calendar/book', {
      body: {
        event_type_id: eventType.id,
        start_time: slot.start,
        end_time: slot.end,
        timezone: 'UTC',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
      },
    }),
    'book',
  );
  if (!('data' in booked)) throw new Error('book: expected the event-type variant');

  // 5. Enroll the contact in a sequence.
  const enrolled = must(
    await api.POST('/api/v1/sequences/{id}/enrollments', { params: { path: { id: sequenceId } }, body: { email: 'ada@example.com' } }),
    'enroll',
  ).data;

  return {
    formId: form.id,
    submissionId: receipt.id,
    visitorIp: recorded.metadata.visitor_ip,
    listedSubmissionIds: submissions.data.map((s) => s.id),
    meetingId: booked.data.id,
    meetingStart: booked.data.start_time,
    enrollmentStatus: enrolled[0]?.status ?? 'none',
  };
}
