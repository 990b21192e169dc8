import { oauthErrorSchema } from '../../api/http/error-schemas';
import { availabilityAnswer as availabilityResponse, bookingAnswer as bookResponse } from '../../api/routes/scheduling/schema';
import { alwaysAvailable, dayFromNow, publishedEventType } from '../scheduling/helpers';
import { http } from '../helpers/http';
import { useApiWorld } from '../helpers/world';

/**
 * What the OpenAPI document says about the endpoints with two variants and about the OAuth token
 * endpoint, and that the real answers match what it says.
 */
const w = useApiWorld();
let doc: any;

beforeAll(async () => {
  doc = (await http(w.app.baseUrl, 'get', '/api/v1/openapi.json')).body;
});

/** Follows `$ref`s into components.schemas (named schemas are components). */
const deref = (schema: any): any => (schema?.$ref ? deref(doc.components.schemas[schema.$ref.split('/').pop()]) : schema);
const jsonSchema = (op: any, status: string) => deref(op.responses[status].content['application/json'].schema);

describe('calendar endpoints: both variants, as oneOf', () => {
  it('GET /api/calendar/availability: the parameters of both variants (each optional, the description names the variants); oneOf the two answers', () => {
    const op = doc.paths['/api/calendar/availability'].get;
    const names = op.parameters.map((p: { name: string }) => p.name);
    for (const n of ['user_id', 'team_id', 'date', 'event_type_id', 'start_date', 'end_date', 'timezone']) expect(names).toContain(n);
    expect(op.parameters.every((p: { in: string; required?: boolean }) => p.in === 'query' && !p.required)).toBe(true);
    expect(jsonSchema(op, '200').oneOf ?? jsonSchema(op, '200').anyOf).toHaveLength(2);
  });

  it('POST /api/calendar/book: oneOf the two bodies and the two answers', () => {
    const op = doc.paths['/api/calendar/book'].post;
    const body = deref(op.requestBody.content['application/json'].schema);
    expect((body.oneOf ?? body.anyOf).map((v: any) => deref(v).required)).toEqual([
      ['user_id', 'team_id', 'start', 'end', 'attendee_email'],
      ['event_type_id', 'start_time', 'end_time', 'timezone', 'name', 'email'],
    ]);
    expect(jsonSchema(op, '201').oneOf ?? jsonSchema(op, '201').anyOf).toHaveLength(2);
  });

  it('the real answers of both variants match the declared response schemas', async () => {
    await alwaysAvailable(w.tdb.db, w.team.userId);
    const { eventTypeId } = await publishedEventType(w.app.baseUrl, w.team);
    const day = dayFromNow(3);
    const a = await http(w.app.baseUrl, 'get', `/api/calendar/availability?user_id=${w.team.userId}&team_id=${w.team.teamId}&date=${day}`);
    const b = await http(
      w.app.baseUrl,
      'get',
      `/api/calendar/availability?event_type_id=${eventTypeId}&start_date=${day}&end_date=${day}&timezone=Europe/Paris`,
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(availabilityResponse.options[0].safeParse(a.body).error).toBeUndefined();
    expect(availabilityResponse.options[1].safeParse(b.body).error).toBeUndefined();
    const [s1, s2] = [a.body.available_slots[0], b.body.data.slots[40]]; // 00:00 UTC and 10:00 Paris: no overlap
    const bookedA = await http(w.app.baseUrl, 'post', '/api/calendar/book', {
      body: {
        user_id: w.team.userId,
        team_id: w.team.teamId,
        start: s1.start,
        end: s1.end,
        attendee_email: 'a@example.com',
        event_type_id: eventTypeId,
      },
    });
    const bookedB = await http(w.app.baseUrl, 'post', '/api/calendar/book', {
      body: {
        event_type_id: eventTypeId,
        start_time: s2.start,
        end_time: s2.end,
        timezone: 'Europe/Paris',
        name: 'B',
        email: 'b@example.com',
      },
    });
    expect([bookedA.status, bookedB.status]).toEqual([201, 201]);
    expect(bookResponse.options[0].safeParse(bookedA.body).error).toBeUndefined();
    expect(bookResponse.options[1].safeParse(bookedB.body).error).toBeUndefined();
  });

  it('a request of neither variant gets 400 naming the fields of the variant it looks like', async () => {
    const b = await http(w.app.baseUrl, 'get', '/api/calendar/availability?start_date=2030-01-01');
    expect(b.status).toBe(400);
    expect(b.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'query.end_date',
      'query.event_type_id',
      'query.timezone',
    ]);
    const a = await http(w.app.baseUrl, 'post', '/api/calendar/book', { body: { user_id: w.team.userId } });
    expect(a.status).toBe(400);
    expect(a.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'body.attendee_email',
      'body.end',
      'body.start',
      'body.team_id',
    ]);
  });
});

describe('POST /api/oauth/token: RFC 6749 errors, documented and answered', () => {
  const form = (body: string) =>
    http(w.app.baseUrl, 'post', '/api/oauth/token', { raw: body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  it('documents the RFC 6749 error body for 400 and 401, and the token response', () => {
    const op = doc.paths['/api/oauth/token'].post;
    for (const status of ['400', '401'])
      expect(jsonSchema(op, status)).toMatchObject({ properties: { error: { type: 'string' } }, required: ['error'] });
    expect(jsonSchema(op, '200').required).toEqual(['access_token', 'token_type', 'expires_in']);
  });

  it('answers in that shape: from the OAuth handler, and for input refused before it runs', async () => {
    const unknownClient = await form('grant_type=refresh_token&refresh_token=x&client_id=nope&client_secret=nope');
    expect([unknownClient.status, unknownClient.body.error]).toEqual([400, 'invalid_client']);
    const nul = await form('grant_type=%00');
    expect(nul.status).toBe(400);
    expect(nul.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('NUL') });
    const json = await http(w.app.baseUrl, 'post', '/api/oauth/token', { body: { grant_type: 'x' } });
    expect(json.status).toBe(415);
    for (const r of [unknownClient, nul, json]) expect(oauthErrorSchema.strict().safeParse(r.body).success).toBe(true);
  });
});
