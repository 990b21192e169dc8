/**
 * The provider stand-ins answer a request body that is not JSON the way the providers do (a 400 in
 * their own error shape), instead of throwing: Graph's `{"error":{"code":"BadRequest",…}}`, Google's
 * `parseError` (test/helpers/standin-requests.ts). A well-formed body still goes through.
 */
import { startGoogleStandin, type GoogleStandin } from '../helpers/google-standin';
import { startGraphEventsStandin, type GraphEventsStandin } from '../helpers/graph-events-standin';
import { startMicrosoftStandin, type MicrosoftStandin } from '../helpers/microsoft-standin';

const client = { clientId: 'client-1', clientSecret: 'secret-1' };
const BROKEN = '{"subject": "no closing brace"';

let google: GoogleStandin;
let graph: MicrosoftStandin;
let graphEvents: GraphEventsStandin;

beforeAll(async () => {
  [google, graph, graphEvents] = await Promise.all([
    startGoogleStandin(client),
    startMicrosoftStandin(client),
    startGraphEventsStandin(client),
  ]);
});
afterAll(async () => {
  await Promise.all([google.close(), graph.close(), graphEvents.close()]);
});

const post = (url: string, token: string, body: string) =>
  fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });

describe('a request body that is not JSON', () => {
  it('Microsoft Graph stand-in: 400 BadRequest in Graph shape, and the server keeps answering', async () => {
    graph.accessTokens.set('at-1', { email: 'ada@contoso.example', until: Date.now() + 60_000 });
    const res = await post(`${graph.url}/v1.0/subscriptions`, 'at-1', BROKEN);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('BadRequest');
    expect(body.error.message).toMatch(/valid JSON/);
    const me = await fetch(`${graph.url}/v1.0/me`, { headers: { authorization: 'Bearer at-1' } });
    expect(me.status).toBe(200);
  });

  it('Graph events stand-in: 400 BadRequest on create; a good create is 201', async () => {
    const { accessToken } = graphEvents.grant();
    const url = `${graphEvents.env().MICROSOFT_GRAPH_URL}/me/calendars/cal-1/events`;
    const bad = await post(url, accessToken, BROKEN);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('BadRequest');
    expect(graphEvents.events('cal-1')).toHaveLength(0);
    const good = await post(url, accessToken, JSON.stringify({ subject: 'ok' }));
    expect(good.status).toBe(201);
    expect(graphEvents.events('cal-1')).toHaveLength(1);
  });

  it('Google stand-in: 400 parseError in Google shape; nothing is stored', async () => {
    google.addCalendar('ada@example.com', { id: 'ada@example.com', primary: true });
    google.accessTokens.set('ya29.t', { email: 'ada@example.com', refresh: null, until: Date.now() + 60_000 });
    const res = await post(`${google.url}/calendar/v3/calendars/ada%40example.com/events`, 'ya29.t', BROKEN);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: number; errors: Array<{ reason: string; domain: string }> } };
    expect(body.error.code).toBe(400);
    expect(body.error.errors[0]).toMatchObject({ domain: 'global', reason: 'parseError' });
    expect(google.events('ada@example.com')).toHaveLength(0);
  });
});
