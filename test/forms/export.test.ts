import { parse } from 'csv-parse/sync';
import { csvCell } from '../../domain/csv';
import { publishForm } from '../fixtures/forms';
import { useApiWorld } from '../helpers/world';
import { http } from '../helpers/http';

/** The submissions export: RFC 4180 CSV (checked with an independent parser), NDJSON, filters, bad input. */
const w = useApiWorld();
let form: { id: string; slug: string };
const ids: string[] = [];

beforeAll(async () => {
  form = await publishForm(w.api, {
    title: 'Export me',
    type: 'quiz',
    fields: [
      { type: 'textarea', label: 'Note', name: 'note' },
      { type: 'number', label: 'Delta', name: 'delta' },
      { type: 'multi_select', label: 'Tags', name: 'tags', options: [{ label: 'A', value: 'a', points: 1 }, 'b'] },
    ],
  });
  const post = (body: unknown, qs = '') => http(w.app.baseUrl, 'post', `/api/forms/${form.id}/submissions${qs}`, { body });
  const a = await post(
    { fields: { email: 'a@example.com', note: '=HYPERLINK("http://x")', delta: -5, tags: ['a', 'b'] } },
    '?utm_source=news&tracking_id=t-1',
  );
  const b = await post({ fields: { email: 'b@example.com', note: 'line one\r\nsaid "hi", then left' }, status: 'partial' });
  const c = await post({ fields: { email: 'c@example.com', note: '@SUM(1)' } }, '?utm_campaign=-2');
  for (const r of [a, b, c]) {
    expect(r.status).toBe(201);
    ids.push(r.body.data.id);
  }
});

const get = (qs: string) => http(w.app.baseUrl, 'get', `/api/v1/forms/${form.id}/submissions/export${qs}`, { token: w.team.apiKey });
/** The body as bytes (fetch's text() would drop a BOM, and the helper parses anything JSON-typed). */
async function getBytes(qs: string) {
  const res = await fetch(`${w.app.baseUrl}/api/v1/forms/${form.id}/submissions/export${qs}`, {
    headers: { authorization: `Bearer ${w.team.apiKey}` },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('GET /api/v1/forms/{id}/submissions/export', () => {
  it('streams CSV: fields in order, metadata, tracking; quoted per RFC 4180; formulas neutralised', async () => {
    const res = await get('?format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${form.slug}-submissions.csv"`);
    expect((await getBytes('?format=csv')).bytes[0]).toBe('e'.charCodeAt(0)); // no BOM unless asked
    expect(res.text.endsWith('\r\n')).toBe(true);
    const rows: string[][] = parse(res.text);
    expect(rows[0]).toEqual([
      'email',
      'note',
      'delta',
      'tags',
      'submission_id',
      'status',
      'submitted_at',
      'qualified',
      'contact_id',
      'score',
      'max_score',
      'referrer',
      'user_agent',
      'device_type',
      'country',
      'partner_token',
      'attribution_id',
      'tracking_id',
      'visitor_id',
      'session_id',
      'utm_source',
      'utm_medium',
      'utm_campaign',
    ]);
    const byId = new Map(rows.slice(1).map((r) => [r[4], Object.fromEntries(rows[0].map((h, i) => [h, r[i]]))]));
    expect(rows.slice(1).map((r) => r[4])).toEqual(ids); // oldest first
    const a = byId.get(ids[0])!;
    expect(a).toMatchObject({ email: 'a@example.com', note: `'=HYPERLINK("http://x")`, delta: '-5', tags: 'a; b', status: 'completed' });
    expect(a).toMatchObject({ utm_source: 'news', tracking_id: 't-1', score: '1', max_score: '1', qualified: 'false' });
    const list = await w.api.get(`/api/v1/submissions/${ids[0]}`);
    expect(a.submitted_at).toBe(list.body.data.submitted_at);
    expect(byId.get(ids[1])).toMatchObject({ note: 'line one\r\nsaid "hi", then left', status: 'partial', score: '' });
    expect(byId.get(ids[2])).toMatchObject({ note: `'@SUM(1)`, utm_campaign: `'-2` });
  });

  it('adds a BOM on request and applies the status, since and until filters', async () => {
    const bom = await getBytes('?bom=true&status=partial');
    expect([...bom.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows: string[][] = parse(bom.bytes, { bom: true });
    expect(rows[0][0]).toBe('email');
    expect(rows.slice(1).map((r) => r[4])).toEqual([ids[1]]);
    const all = await w.api.get(`/api/v1/forms/${form.id}/submissions`);
    const at = (id: string) => all.body.data.find((s: { id: string }) => s.id === id).submitted_at as string;
    const since = parse((await get(`?since=${encodeURIComponent(at(ids[0]))}`)).text) as string[][];
    expect(since.slice(1).map((r) => r[4])).toEqual([ids[1], ids[2]]);
    const until = parse((await get(`?until=${encodeURIComponent(at(ids[1]))}`)).text) as string[][];
    expect(until.slice(1).map((r) => r[4])).toEqual([ids[0]]);
    const none = await get('?status=partial&since=2999-01-01T00:00:00Z');
    expect(parse(none.text)).toHaveLength(1); // the header only
  });

  it('streams NDJSON, one submission per line', async () => {
    const res = await getBytes('?format=ndjson');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = res.bytes
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(ids);
    expect(lines[0]).toMatchObject({
      status: 'completed',
      score: 1,
      max_score: 1,
      fields: { tags: ['a', 'b'] },
      metadata: { utm_source: 'news' },
    });
  });

  it('rejects a bad date, a bad format and a bad status with 400 and details; another team gets 404', async () => {
    for (const [qs, path] of [
      ['?since=yesterday', 'query.since'],
      ['?until=2024-13-01', 'query.until'],
      ['?format=xlsx', 'query.format'],
      ['?status=done', 'query.status'],
    ]) {
      const res = await get(qs);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details[0].path).toBe(path);
    }
    const other = await w.api.post('/api/v1/forms', { title: 'Not mine' });
    await w.tdb
      .db('forms')
      .where({ id: other.body.data.id })
      .update({ team_id: (await w.tdb.db('teams').insert({ name: 'Other' }).returning('id'))[0].id });
    const res = await http(w.app.baseUrl, 'get', `/api/v1/forms/${other.body.data.id}/submissions/export`, { token: w.team.apiKey });
    expect(res.status).toBe(404);
  });
});

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['=1+2', `'=1+2`],
    ['+1', `'+1`],
    ['-1', `'-1`],
    ['@x', `'@x`],
    ['\tx', `'\tx`],
    ['=a,b', `"'=a,b"`],
  ])('%j → %j', (input, out) => {
    expect(csvCell(input)).toBe(out);
  });
  it('leaves numbers alone when told the cell is not text', () => {
    expect(csvCell('-5', false)).toBe('-5');
    expect(csvCell(null)).toBe('');
  });
});
