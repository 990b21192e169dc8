import { randomUUID } from 'node:crypto';
import twilio from 'twilio';
import { z } from 'zod';
import { allRoutes } from '../../api/routes';
import { isDashboardOnly, type RouteDef } from '../../api/http/route';
import { http } from '../helpers/http';
import { buildOpenApiDocument, operationOf } from '../../api/http/openapi';
import { useApiWorld } from '../helpers/world';

/**
 * Bad input on every route in the route table: malformed JSON, the wrong content type, a 2 MB
 * body, unknown fields, wrong types, out-of-range pagination, for JSON and form-encoded routes
 * alike. Each gets the exact status its route documents (listed in the OpenAPI document), in the
 * route's error shape; none gets a 500.
 */
const routes = allRoutes();
const key = (r: RouteDef) => `${r.method.toUpperCase()} ${r.path}`;
const TWILIO_TOKEN = 'bad-input-twilio-token';

// Twilio callbacks check the signature first: sign them, so that their input checks run.
// Staff routes (`auth: {staff: true}`) take the same session: make its user staff so their input checks run.
const w = useApiWorld({ env: { TWILIO_AUTH_TOKEN: TWILIO_TOKEN }, staff: true });

function tokenFor(r: RouteDef): string | undefined {
  if (r.auth === 'public') return undefined;
  if (isDashboardOnly(r.auth) || 'staff' in r.auth) return w.team.session;
  return w.team.apiKey;
}

function path(r: RouteDef): string {
  return r.path.replace(/:([A-Za-z0-9_]+)/g, () => randomUUID());
}

type Shape = 'api' | 'oauth' | 'html';
/** How a route writes its errors: the API's `{error: {code, message, request_id}}`, RFC 6749's `{error, error_description}`, or an HTML page. */
function shapeOf(r: RouteDef, res: { headers: Headers }): Shape {
  if (r.errorShape === 'oauth') return 'oauth';
  return (res.headers.get('content-type') ?? '').startsWith('text/html') ? 'html' : 'api';
}

/** Exactly `status`, listed for the route in the OpenAPI document, in the route's error shape (with `code` for API errors). */
function expectDocumented(res: { status: number; body: any; headers: Headers }, r: RouteDef, status: number, code?: string) {
  expect({ route: key(r), status: res.status }).toEqual({ route: key(r), status });
  expect(Object.keys(operationOf(doc, r).responses)).toContain(String(status));
  const shape = shapeOf(r, res);
  if (shape === 'oauth') {
    expect(typeof res.body.error).toBe('string');
  } else if (shape === 'api') {
    expect(typeof res.body.error.code).toBe('string');
    expect(typeof res.body.error.request_id).toBe('string');
    if (code) expect(res.body.error.code).toBe(code);
  } else {
    // A page (sign-in, consent) answers bad input with itself, saying what is wrong.
    expect(r.raw).toBe(true);
    expect(res.body).toMatch(/^<!doctype html>/i);
  }
}

const doc = buildOpenApiDocument(routes, 'http://localhost') as unknown as Parameters<typeof operationOf>[0];
const accepts = (r: RouteDef) => r.accepts ?? ['json'];
const withBody = routes.filter((r) => r.body);
const jsonRoutes = withBody.filter((r) => accepts(r).includes('json'));
const formRoutes = withBody.filter((r) => accepts(r).includes('form'));
const withPaging = routes.filter((r) => r.query instanceof z.ZodObject && 'per_page' in (r.query as z.ZodObject).shape);
const FORM = 'application/x-www-form-urlencoded';

/** Form bodies with unknown fields or a field sent twice (an array where one value is expected): the status each route documents. */
const FORM_BAD: Record<string, { status: number; code?: string; bodies?: string[] }> = {
  // RFC 6749 §5.2: no client in the body, so invalid_client (400 when no Authorization header was tried).
  'POST /api/oauth/token': { status: 400 },
  // RFC 7009 §2.1 points to §5.2: the client is authenticated first, 401 invalid_client.
  'POST /api/oauth/revoke': { status: 401 },
  // The consent and sign-in pages: the page again, 400, saying the request is not valid.
  'POST /api/oauth/authorize': { status: 400 },
  'POST /api/oauth/login': { status: 400 },
  // Twilio sends many parameters, each at most once, none required: unknown ones are fine, one sent twice is not.
  'POST /api/hooks/twilio/status': { status: 400, code: 'validation_failed', bodies: ['MessageSid=SM1&MessageSid=SM2'] },
  'POST /api/hooks/twilio/inbound': { status: 400, code: 'validation_failed', bodies: ['From=%2B15550001&From=%2B15550002'] },
};
const formBad = (r: RouteDef) =>
  FORM_BAD[key(r)] ?? { status: 400, code: 'validation_failed', bodies: ['__unknown_field__=1', 'title=12&title=13'] };

function formPost(r: RouteDef, raw: string) {
  const p = path(r);
  const headers: Record<string, string> = { 'content-type': FORM };
  if (p.startsWith('/api/hooks/twilio/')) {
    headers['x-twilio-signature'] = twilio.getExpectedTwilioSignature(
      TWILIO_TOKEN,
      `${w.app.baseUrl}${p}`,
      Object.fromEntries(new URLSearchParams(raw)),
    );
  }
  return http(w.app.baseUrl, r.method, p, { token: tokenFor(r), raw, headers });
}

describe.each(withBody.map((r) => [key(r), r] as const))('body of %s', (_n, r) => {
  const json = accepts(r).includes('json');
  it(`rejects a text/plain body with ${r.errorShape === 'oauth' ? '415 (RFC 6749 invalid_request)' : '415 unsupported_media_type'}`, async () => {
    const res = await http(w.app.baseUrl, r.method, path(r), {
      token: tokenFor(r),
      raw: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    if (r.errorShape === 'oauth') expect(res.body.error).toBe('invalid_request');
    else expectDocumentedShape(res, 'unsupported_media_type');
  });
  it('rejects a 2 MB body with 413 payload_too_large', async () => {
    const big = JSON.stringify({ blob: 'x'.repeat(2 * 1024 * 1024) });
    const res = await http(w.app.baseUrl, r.method, path(r), {
      token: tokenFor(r),
      raw: big,
      headers: { 'content-type': json ? 'application/json' : FORM },
    });
    expect(res.status).toBe(413);
    if (r.errorShape === 'oauth') expect(res.body.error).toBe('invalid_request');
    else expectDocumentedShape(res, 'payload_too_large');
  });
});

/** 413 and 415 come from the body parser, before the route: the API's error shape, the same on every route. */
function expectDocumentedShape(res: { body: any }, code: string) {
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.request_id).toBe('string');
}

describe.each(jsonRoutes.map((r) => [key(r), r] as const))('JSON body of %s', (_n, r) => {
  it('rejects malformed JSON with 400 invalid_request', async () => {
    const res = await http(w.app.baseUrl, r.method, path(r), {
      token: tokenFor(r),
      raw: '{"a": ',
      headers: { 'content-type': 'application/json' },
    });
    expectDocumented(res, r, 400, 'invalid_request');
  });
  it.each([
    ['an unknown field', { __unknown_field__: 1 }],
    ['an array', [1, 2]],
    ['wrong types', { title: 12, name: false, email: 7, url: [], status: {} }],
  ])('rejects %s with 400 validation_failed', async (_what, body) => {
    const res = await http(w.app.baseUrl, r.method, path(r), { token: tokenFor(r), body });
    expectDocumented(res, r, 400, 'validation_failed');
    expect(res.body.error.details.length).toBeGreaterThan(0);
  });
});

describe.each(formRoutes.map((r) => [key(r), r, formBad(r)] as const))('form-encoded body of %s', (_n, r, bad) => {
  it.each(bad.bodies ?? ['__unknown_field__=1', 'title=12&title=13', ''])(`rejects "%s" with ${bad.status}`, async (raw) => {
    expectDocumented(await formPost(r, raw), r, bad.status, bad.code);
  });
  if (!accepts(r).includes('json')) {
    it('rejects a JSON body with 415', async () => {
      const res = await http(w.app.baseUrl, r.method, path(r), { token: tokenFor(r), body: { a: 1 } });
      expect(res.status).toBe(415);
    });
  }
});

describe.each(withPaging.map((r) => [key(r), r] as const))('paging of %s', (_n, r) => {
  it.each(['per_page=0', 'per_page=101', 'page=0', 'page=-1', 'per_page=abc', 'limit=1000'])(
    'rejects %s with 400 validation_failed',
    async (qs) => {
      const res = await http(w.app.baseUrl, 'get', `${path(r)}?${qs}`, { token: tokenFor(r) });
      expectDocumented(res, r, 400, 'validation_failed');
      expect(res.body.error.details[0].path).toMatch(/^query\./);
    },
  );
});
