import { http } from '../helpers/http';
import { useApiWorld } from '../helpers/world';

/**
 * GET /healthz with every part up: the app on its database, with a client of the Temporal test
 * server (the test app counts Temporal up when it has one: test/helpers/app.ts). The 503 naming the
 * part that is down is in api.test.ts (an app without Temporal).
 */
const w = useApiWorld({ temporal: 'time-skipping', team: false });

it('answers 200 when Postgres and Temporal both answer', async () => {
  const res = await http(w.app.baseUrl, 'get', '/healthz');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ status: 'ok', postgres: 'up', temporal: 'up' });
});
