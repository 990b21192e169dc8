import { http } from '../helpers/http';
import { publishForm } from '../fixtures/forms';
import { useApiWorld } from '../helpers/world';

let form: { id: string; slug: string; title: string };

const MOBILE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const TABLET_UA = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15';

const w = useApiWorld();
beforeAll(async () => {
  form = await publishForm(w.api, {
    title: 'Lead form',
    slug: 'lead-form',
    fields: [
      { type: 'text', label: 'First name', name: 'first_name' },
      { type: 'number', label: 'Seats', name: 'seats', min: 1, max: 500 },
      { type: 'multi_select', label: 'Interests', name: 'interests', options: ['forms', 'sequences'] },
      { type: 'checkbox', label: 'Agree', name: 'agree' },
      { type: 'rating', label: 'Score', name: 'score' },
      { type: 'textarea', label: 'Message', name: 'message' },
    ],
    settings: { qualification: { match: 'all', rules: [{ field: 'seats', operator: 'gte', value: 50 }] } },
  });
});

const submit = (body: unknown, qs = '', headers: Record<string, string> = {}) =>
  http(w.app.baseUrl, 'post', `/api/forms/${form.slug}/submissions${qs}`, { body, headers });
const count = async (table: string) => Number((await w.tdb.db(table).count({ n: '*' }).first())?.n);

describe('public submission endpoint', () => {
  it('stores a completed submission with tracking, device and country, links the contact, records the event', async () => {
    const res = await submit(
      {
        fields: {
          email: 'Ann@Example.com',
          first_name: 'Ann',
          seats: 10,
          interests: ['forms'],
          agree: true,
          score: 4,
          message: '<b>hi</b>',
        },
        status: 'completed',
        tracking: { visitor_id: 'v-1' },
      },
      '?utm_source=news&utm_medium=email&tracking_id=t1&partner_token=p1&embed=1',
      { 'user-agent': MOBILE_UA, 'cf-ipcountry': 'de', referer: 'https://ref.example/page' },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { id: expect.any(String), status: 'completed' } });
    const list = await w.api.get(`/api/v1/forms/${form.id}/submissions`);
    const s = list.body.data.find((x: { id: string }) => x.id === res.body.data.id);
    expect(s.fields).toEqual({
      email: 'Ann@Example.com',
      first_name: 'Ann',
      seats: 10,
      interests: ['forms'],
      agree: true,
      score: 4,
      message: '<b>hi</b>',
    });
    expect(s.metadata).toEqual({
      referrer: 'https://ref.example/page',
      user_agent: MOBILE_UA,
      device_type: 'mobile',
      country: 'DE',
      utm_source: 'news',
      utm_medium: 'email',
      utm_campaign: null,
      partner_token: 'p1',
      attribution_id: null,
      tracking_id: 't1',
      visitor_id: 'v-1',
      session_id: null,
    });
    expect(s.qualified).toBe(false);
    const contact = await w.api.get(`/api/v1/contacts/${s.contact_id}`);
    expect(contact.body.data).toMatchObject({ email: 'Ann@Example.com', first_name: 'Ann' });
    expect(contact.body.data.submissions).toEqual([s.id]);
    const events = await w.tdb.db('events').where({ form_id: form.id }).orderBy('created_at');
    const created = events.find((e) => e.payload.data.submission_id === s.id);
    expect(created!.type).toBe('submission.created');
    expect(created!.payload).toEqual({
      event: 'submission.created',
      timestamp: expect.any(String),
      data: {
        form_id: form.id,
        form_title: 'Lead form',
        form_slug: 'lead-form',
        submission_id: s.id,
        submission_data: s.fields,
        submitted_at: new Date(s.submitted_at).toISOString(),
        metadata: s.metadata,
      },
    });
  });

  it('continues a partial submission (200) and completes it; the same contact is updated', async () => {
    const partial = await submit({ fields: { email: 'ann@example.com' }, status: 'partial' }, '', { 'user-agent': TABLET_UA });
    expect(partial.status).toBe(201);
    expect(partial.body.data.status).toBe('partial');
    const eventsBefore = await count('events');
    const done = await submit({ fields: { seats: 120 }, status: 'completed', submission_id: partial.body.data.id });
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ id: partial.body.data.id, status: 'completed' });
    const row = await w.tdb.db('submissions').where({ id: partial.body.data.id }).first();
    expect(row!.fields).toEqual({ email: 'ann@example.com', seats: 120 });
    expect(row!.metadata.device_type).toBe('tablet');
    expect(row!.qualified).toBe(true);
    const types = (await w.tdb.db('events').orderBy('created_at').offset(eventsBefore)).map((e) => e.type);
    expect(types).toEqual(['submission.created', 'submission.qualified']);
    const contacts = await w.tdb.db('contacts').where({ team_id: w.team.teamId }).whereRaw('lower(email) = ?', ['ann@example.com']);
    expect(contacts).toHaveLength(1);
    const again = await submit({ fields: { seats: 3 }, status: 'completed', submission_id: partial.body.data.id });
    expect(again.status).toBe(409);
  });

  it.each([
    ['missing required field', { fields: { first_name: 'x' } }, 'fields.email', 'is required'],
    ['invalid email', { fields: { email: 'not-an-email' } }, 'fields.email', 'valid email'],
    ['unknown field', { fields: { email: 'a@b.co', hacker: 1 } }, 'fields.hacker', 'not a field'],
    ['wrong type', { fields: { email: 'a@b.co', seats: 'ten' } }, 'fields.seats', 'number'],
    ['out of range', { fields: { email: 'a@b.co', seats: 9999 } }, 'fields.seats', 'at most'],
    ['oversized value', { fields: { email: 'a@b.co', first_name: 'x'.repeat(1001) } }, 'fields.first_name', 'at most 1000'],
    ['control characters', { fields: { email: 'a@b.co', first_name: 'a\u0007b' } }, 'fields.first_name', 'control'],
    ['lone surrogate', { fields: { email: 'a@b.co', message: 'a\ud800b' } }, 'fields.message', 'UTF-8'],
    ['replacement char', { fields: { email: 'a@b.co', message: 'bad \ufffd bytes' } }, 'fields.message', 'UTF-8'],
    ['unknown option', { fields: { email: 'a@b.co', interests: ['golf'] } }, 'fields.interests', 'options'],
    ['rating out of scale', { fields: { email: 'a@b.co', score: 6 } }, 'fields.score', '1 to 5'],
  ])('rejects %s with 400 validation_failed naming the field, and writes nothing', async (_n, body, path, msg) => {
    const before = [await count('submissions'), await count('contacts'), await count('events')];
    const res = await submit({ ...body, status: 'completed' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    const d = res.body.error.details.find((x: { path: string }) => x.path === path);
    expect(d.message).toContain(msg);
    expect([await count('submissions'), await count('contacts'), await count('events')]).toEqual(before);
  });

  it('rejects undecodable UTF-8 bytes in a raw body', async () => {
    const raw = Buffer.concat([Buffer.from('{"fields":{"email":"a@b.co","first_name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')]);
    const res = await http(w.app.baseUrl, 'post', `/api/forms/${form.id}/submissions`, {
      raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });

  it('drops honeypot submissions silently', async () => {
    const before = await count('submissions');
    const res = await submit({ fields: { email: 'bot@spam.example' }, website_url: 'http://spam.example' });
    expect(res.status).toBe(201);
    expect(await count('submissions')).toBe(before);
  });

  it('answers 404 for drafts, archived and unknown forms', async () => {
    const draft = await w.api.post('/api/v1/forms', { title: 'Draft', fields: [] });
    expect((await http(w.app.baseUrl, 'post', `/api/forms/${draft.body.data.id}/submissions`, { body: { fields: {} } })).status).toBe(404);
    expect((await http(w.app.baseUrl, 'post', `/api/forms/${draft.body.data.slug}/submissions`, { body: { fields: {} } })).status).toBe(
      404,
    );
    expect((await http(w.app.baseUrl, 'post', '/api/forms/nope/submissions', { body: { fields: {} } })).status).toBe(404);
    const page = await http(w.app.baseUrl, 'get', `/f/${draft.body.data.slug}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('not open for answers');
  });

  it('accepts a form-encoded post from the no-JS page and shows errors beside fields', async () => {
    const post = (body: string) =>
      http(w.app.baseUrl, 'post', `/api/forms/${form.id}/submissions?utm_source=paper`, {
        raw: body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const bad = await post(
      'status=completed&website_url=&fields%5Bemail%5D=nope&fields%5Bfirst_name%5D=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
    );
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('text/html');
    expect(bad.text).toMatch(/<p class="error" id="f-email-error">Email must be a valid email address<\/p>/);
    expect(bad.text).toContain('aria-invalid="true"');
    expect(bad.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(bad.text).not.toContain('<script>alert(1)');
    const ok = await post(
      'status=completed&fields%5Bemail%5D=form%40example.com&fields%5Bseats%5D=60&fields%5Binterests%5D%5B%5D=forms&fields%5Bagree%5D=true',
    );
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('Thank you');
    const row = await w.tdb.db('submissions').whereRaw(`fields->>'email' = ?`, ['form@example.com']).first();
    expect(row!.fields).toEqual({ email: 'form@example.com', seats: 60, interests: ['forms'], agree: true });
    expect(row!.metadata.utm_source).toBe('paper');
  });

  it('redirects a no-JS post to redirect_url', async () => {
    const f = await w.api.post('/api/v1/forms', {
      title: 'Redirecting',
      status: 'published',
      fields: [{ type: 'text', label: 'Q' }],
      settings: { redirect_url: 'https://example.com/thanks' },
    });
    const res = await http(w.app.baseUrl, 'post', `/api/forms/${f.body.data.slug}/submissions`, {
      raw: 'fields%5Bq%5D=hello',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://example.com/thanks');
  });

  it('rejects an over-long tracking parameter in the query string', async () => {
    const res = await submit({ fields: { email: 'a@b.co' } }, `?utm_source=${'x'.repeat(600)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('query.utm_source');
  });

  it('serves the page by slug or id with a nonce CSP, embeds without chrome, and counts views', async () => {
    const views = await count('form_views');
    const page = await http(w.app.baseUrl, 'get', `/f/${form.slug}?utm_source=news`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'nonce-[^']+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.text).toContain('<h1>Lead form</h1>');
    expect(page.text).toContain(`action="/api/forms/${form.id}/submissions?utm_source=news"`);
    expect(page.text).toMatch(/<label for="f-email">Email/);
    const embed = await http(w.app.baseUrl, 'get', `/f/${form.id}?embed=1`);
    expect(embed.status).toBe(200);
    expect(embed.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(embed.text).not.toContain('<h1>');
    expect(await count('form_views')).toBe(views + 2);
  });
});
