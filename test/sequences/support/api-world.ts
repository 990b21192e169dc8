import { useApiWorld, type ApiWorld } from '../../helpers/world';

/** The auth token the app checks Twilio callback signatures with. */
export const TOKEN = 'api-test-twilio-token';

export const email = {
  channel: 'email',
  delay: { value: 1, unit: 'days' },
  subject: 'Hi {{first_name}}',
  body: 'Hello {{ first_name }} {{custom.company}}',
};
export const sms = { channel: 'sms', delay: { value: 2, unit: 'hours' }, body: 'Hey {{first_name}}' };

/**
 * The sequences API without Temporal, for one suite (authoring-and-entry, unsubscribes-and-twilio):
 * the world (a second team for the 404 checks) and `create`, which saves a sequence through the
 * owner's dashboard session (active, one email step unless the body says otherwise).
 */
export function useSequencesApi(): { w: ApiWorld; create(body: Record<string, unknown>): Promise<any> } {
  const w = useApiWorld({ other: true, env: { TWILIO_AUTH_TOKEN: TOKEN } });
  // No Temporal here: starts wait in the outbox, and no fast-path start outlives the suite's database
  // (the bulk enrollment's 1,000 rows would still be in flight when it is dropped).
  beforeAll(() => {
    w.app.deps.outbox.fastPath = false;
  });
  async function create(body: Record<string, unknown>) {
    const res = await w.session.post('/api/v1/sequences', { name: 'S', status: 'active', steps: [email], ...body });
    expect(res.status).toBe(201);
    return res.body.data;
  }
  return { w, create };
}
