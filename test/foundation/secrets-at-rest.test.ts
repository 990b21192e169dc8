import { randomBytes } from 'node:crypto';
import { useApiWorld } from '../helpers/world';
import { client } from '../helpers/http';
import { expireIdempotencyKeys } from '../../services/idempotency/expire';
import { maintenanceTasks } from '../../services/maintenance/tasks';

/**
 * No secret at rest in the clear, idempotent replays included (docs/decisions.md "Idempotency"):
 * each secret-bearing resource is made with an Idempotency-Key, its answer replayed, and then
 * every text, varchar, json, jsonb and bytea column of every table is searched for the secret
 * (and for the client's Idempotency-Key itself). Neither may be found.
 */
const w = useApiWorld();

/** Every table and column, with the rows whose column holds `needle` (as text, or as bytes in a bytea). */
async function findInDatabase(needle: string): Promise<string[]> {
  const { rows: columns } = await w.tdb.db.raw<{ rows: Array<{ table_name: string; column_name: string; data_type: string }> }>(
    `select c.table_name, c.column_name, c.data_type
       from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
        and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea', 'ARRAY', 'USER-DEFINED')`,
  );
  expect(columns.length).toBeGreaterThan(50); // the search covers the schema, not an empty list
  const hits: string[] = [];
  for (const c of columns) {
    const col = `"${c.column_name}"`;
    const cond = c.data_type === 'bytea' ? `position(convert_to(?, 'UTF8') in ${col}) > 0` : `strpos(${col}::text, ?) > 0`;
    const { rows } = await w.tdb.db.raw(`select count(*)::int as n from "${c.table_name}" where ${cond}`, [needle]);
    if (rows[0].n > 0) hits.push(`${c.table_name}.${c.column_name}`);
  }
  return hits;
}

const idemKey = () => `idem-${randomBytes(16).toString('hex')}`;

it('API keys, webhook secrets and OAuth client secrets, created and rotated with an Idempotency-Key, are nowhere in the database', async () => {
  const dash = client(w.app.baseUrl, w.team.session);
  const api = client(w.app.baseUrl, w.team.apiKey);
  const secrets: Array<[string, string]> = [];
  const keysUsed: string[] = [];

  async function twice(
    call: (h: Record<string, string>) => Promise<{ status: number; body: any; headers: Headers }>,
    pick: (b: any) => string,
  ) {
    const k = idemKey();
    keysUsed.push(k);
    const first = await call({ 'idempotency-key': k });
    expect(first.status).toBeLessThan(300);
    const again = await call({ 'idempotency-key': k });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(pick(again.body)).toBe(pick(first.body)); // the client that kept its key gets its answer back
    return first.body;
  }

  const key = await twice(
    (h) => dash.post('/api/v1/api-keys', { name: 'search me' }, h),
    (b) => b.data.api_key,
  );
  secrets.push(['api key', key.data.api_key]);
  const regenerated = await twice(
    (h) => dash.post(`/api/v1/api-keys/${key.data.id}/regenerate`, undefined, h),
    (b) => b.data.api_key,
  );
  secrets.push(['regenerated api key', regenerated.data.api_key]);

  const hook = await twice(
    (h) => api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['submission.created'] }, h),
    (b) => b.data.secret,
  );
  secrets.push(['webhook secret', hook.data.secret]);
  const rotated = await twice(
    (h) => api.post(`/api/v1/webhooks/${hook.data.id}/rotate-secret`, undefined, h),
    (b) => b.data.secret,
  );
  secrets.push(['rotated webhook secret', rotated.data.secret]);

  const oauthApp = await twice(
    (h) =>
      dash.post(
        '/api/v1/apps',
        {
          name: 'Secret keeper',
          description: 'd',
          website_url: 'https://keeper.example.com',
          redirect_uris: ['https://keeper.example.com/cb'],
          scopes: ['forms:read'],
        },
        h,
      ),
    (b) => b.data.client_secret,
  );
  secrets.push(['oauth client secret', oauthApp.data.client_secret]);
  const rotatedApp = await twice(
    (h) => dash.post(`/api/v1/apps/${oauthApp.data.id}/rotate-secret`, undefined, h),
    (b) => b.data.client_secret,
  );
  secrets.push(['rotated oauth client secret', rotatedApp.data.client_secret]);

  const stored = await w.tdb.db('idempotency_keys').count<{ n: string | number }[]>('* as n');
  expect(Number(stored[0].n)).toBe(secrets.length);
  for (const [what, secret] of secrets) {
    expect(secret.length).toBeGreaterThan(20);
    expect({ what, found: await findInDatabase(secret) }).toEqual({ what, found: [] });
  }
  for (const k of keysUsed) expect({ key: k, found: await findInDatabase(k) }).toEqual({ key: k, found: [] });
  // The search itself finds what is there: the webhook's description column holds this text.
  await api.patch(`/api/v1/webhooks/${hook.data.id}`, { description: 'needle-7f3a' });
  expect(await findInDatabase('needle-7f3a')).toEqual(['webhook_subscriptions.description']);
});

it('a request that died mid-way holds its key only for its lease; rows older than 24 hours are removed', async () => {
  const dash = client(w.app.baseUrl, w.team.session);
  const k = idemKey();
  const body = { name: 'after a crash' };
  const first = await dash.post('/api/v1/api-keys', body, { 'idempotency-key': k });
  expect(first.status).toBe(201);
  // Simulate a process that claimed the key and died before storing an answer, its lease run out.
  const row = (await w.tdb.db('idempotency_keys').orderBy('created_at', 'desc').first('key_hash'))!;
  await w.tdb
    .db('idempotency_keys')
    .where({ key_hash: row.key_hash })
    .update({ status: null, body_sealed: null, locked_until: w.tdb.db.raw(`now() - interval '1 second'`) });
  const retry = await dash.post('/api/v1/api-keys', body, { 'idempotency-key': k });
  expect(retry.status).toBe(201);
  expect(retry.headers.get('idempotent-replayed')).toBeNull();
  // While a live lease holds the key, a retry is 409.
  await w.tdb
    .db('idempotency_keys')
    .where({ key_hash: row.key_hash })
    .update({ status: null, body_sealed: null, locked_until: w.tdb.db.raw(`now() + interval '1 minute'`) });
  const busy = await dash.post('/api/v1/api-keys', body, { 'idempotency-key': k });
  expect(busy.status).toBe(409);
  expect(busy.body.error.message).toMatch(/in progress/);

  const total = Number((await w.tdb.db('idempotency_keys').count<{ n: string }[]>('* as n'))[0].n);
  await w.tdb
    .db('idempotency_keys')
    .where({ key_hash: row.key_hash })
    .update({ created_at: new Date(Date.now() - 25 * 3600 * 1000) });
  expect(await expireIdempotencyKeys({ db: w.tdb.db }, {})).toEqual({ deleted: 1 });
  expect(Number((await w.tdb.db('idempotency_keys').count<{ n: string }[]>('* as n'))[0].n)).toBe(total - 1);
  expect(await expireIdempotencyKeys({ db: w.tdb.db }, {})).toEqual({ deleted: 0 });
  // The maintenance table's entry (run by the idempotency-expiry Schedule) is this use case.
  await w.tdb.db('idempotency_keys').update({ created_at: new Date(Date.now() - 25 * 3600 * 1000) });
  const task = maintenanceTasks['idempotency-expiry'];
  expect(task.every).toBe('15m');
  expect(await task.run(w.app.deps)).toEqual({ deleted: total - 1 });
  expect(Number((await w.tdb.db('idempotency_keys').count<{ n: string }[]>('* as n'))[0].n)).toBe(0);
});
