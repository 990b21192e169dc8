import crypto from 'node:crypto';

/** RFC 7636 §4.1: 43–128 characters of [A-Z a-z 0-9 - . _ ~]. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the base64url SHA-256 of the verifier: 43 characters without padding. */
const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export type PkceCheck = { ok: true } | { ok: false; reason: string };

/** Only S256 is accepted; `plain` and anything else is refused (DESIGN.md §3). */
export function checkChallenge(challenge: string | undefined, method: string | undefined): PkceCheck {
  if (!challenge) return { ok: false, reason: 'code_challenge is required (PKCE with S256)' };
  if (method !== 'S256') {
    return {
      ok: false,
      reason: method === 'plain' ? 'code_challenge_method "plain" is not allowed; use "S256"' : 'code_challenge_method must be "S256"',
    };
  }
  if (!S256_CHALLENGE.test(challenge)) return { ok: false, reason: 'code_challenge is not a valid S256 challenge' };
  return { ok: true };
}

export function isValidVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

export function s256Challenge(verifier: string): string {
  return crypto.createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
