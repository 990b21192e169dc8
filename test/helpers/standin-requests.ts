import crypto from 'node:crypto';

/**
 * Request helpers shared by the provider stand-ins (test doubles only).
 * - A JSON request body read without throwing: the providers answer a body that is not JSON with a
 *   400 in their own error shape (Graph: `{"error":{"code":"BadRequest","message":…}}`; Google:
 *   `{"error":{"errors":[{"domain":"global","reason":"parseError",…}],"code":400,…}}`), so each
 *   stand-in checks for BAD_JSON and answers that instead of throwing.
 * - Graph's validation request to a subscription's notification URLs.
 */
export const BAD_JSON: unique symbol = Symbol('a request body that is not JSON');

/** The parsed body; null for an empty one; BAD_JSON when it does not parse. */
export function jsonBody(raw: string): unknown {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return BAD_JSON;
  }
}

/** Graph's message for a body it cannot read (the BadRequest code, HTTP 400). */
export const GRAPH_BAD_JSON_MESSAGE =
  'Unable to read JSON request payload. Please ensure Content-Type header is set and payload is of valid JSON format.';

/**
 * Graph's validation request before it creates a subscription (learn.microsoft.com/graph/change-notifications-delivery-webhooks):
 * `POST {url}?validationToken=…` (text/plain), which must answer 200 text/plain with the token within 10 s.
 */
export async function graphValidates(url: string): Promise<boolean> {
  const token = `Validation: Testing client application reachability for subscription Request-Id: ${crypto.randomBytes(4).toString('hex')}`;
  const u = new URL(url);
  u.searchParams.set('validationToken', token);
  const res = await fetch(u, {
    method: 'POST',
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    signal: AbortSignal.timeout(10_000),
  }).catch(() => null);
  const text = (await res?.text()) ?? '';
  return !!res && res.status === 200 && (res.headers.get('content-type') ?? '').startsWith('text/plain') && text === token;
}
