import { isScope } from '../../core/scopes';
import type { Executor } from '../../db/knex';
import { redirectUriMatches } from '../../domain/app-checklist';
import { checkChallenge } from '../../domain/pkce';
import { findClient, type OAuthClient } from './model';

export interface AuthorizeParams {
  client_id: string;
  redirect_uri: string;
  response_type: 'code';
  scope: string;
  state: string;
  code_challenge: string;
  code_challenge_method: 'S256';
}

export type AuthorizeCheck =
  /** Show an error page: the client or the redirect URI cannot be trusted, so never redirect. */
  | { kind: 'page_error'; message: string }
  /** Redirect back with an RFC 6749 §4.1.2.1 error. */
  | { kind: 'redirect_error'; redirectUri: string; error: string; description: string; state?: string }
  | { kind: 'ok'; client: OAuthClient; params: AuthorizeParams; scopes: string[] };

const one = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** State is printable ASCII (RFC 6749 VSCHAR), at most 500 characters. */
const VSCHAR = /^[\x20-\x7e]{1,500}$/;

/** Validate an authorization request (from the query or the consent form). */
export async function checkAuthorizeRequest(db: Executor, q: Record<string, unknown>): Promise<AuthorizeCheck> {
  const clientId = one(q.client_id);
  if (!clientId) return { kind: 'page_error', message: 'The request has no valid client_id.' };
  const found = await findClient(db, clientId);
  if (!found) return { kind: 'page_error', message: 'No application is registered with this client_id.' };
  const redirectUri = one(q.redirect_uri);
  if (!redirectUri) return { kind: 'page_error', message: 'The request has no redirect_uri.' };
  if (!redirectUriMatches(found.client.redirectUris, redirectUri)) {
    return { kind: 'page_error', message: 'The redirect_uri is not registered for this application.' };
  }
  const rawState = one(q.state);
  const state = rawState && VSCHAR.test(rawState) ? rawState : undefined;
  const fail = (error: string, description: string): AuthorizeCheck => ({ kind: 'redirect_error', redirectUri, error, description, state });
  if (!state) return fail('invalid_request', 'state is required (random, printable ASCII, at most 500 characters)');
  if (one(q.response_type) !== 'code') return fail('unsupported_response_type', 'response_type must be "code"');
  const pkce = checkChallenge(one(q.code_challenge), one(q.code_challenge_method));
  if (!pkce.ok) return fail('invalid_request', pkce.reason);
  const scopeText = one(q.scope)?.trim();
  if (!scopeText) return fail('invalid_scope', 'scope is required');
  const scopes = [...new Set(scopeText.split(/ +/))];
  const allowed = new Set(found.client.scopes);
  const bad = scopes.filter((s) => !isScope(s) || !allowed.has(s));
  if (bad.length) return fail('invalid_scope', `The application is not registered for: ${bad.join(' ').slice(0, 200)}`);
  return {
    kind: 'ok',
    client: found.client,
    scopes,
    params: {
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: scopes.join(' '),
      state,
      code_challenge: one(q.code_challenge)!,
      code_challenge_method: 'S256',
    },
  };
}

/** The redirect URI with extra query parameters (keeps its own query). */
export function redirectWith(uri: string, params: Record<string, string | undefined>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}
