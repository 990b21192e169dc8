import type { Principal } from '../../core/principal';

/**
 * A short-lived, bounded cache of resolved credentials, keyed by the credential's hash.
 * Revoking or regenerating in this process evicts at once; another API process notices within
 * TTL_MS (documented in docs/decisions.md). Expiry times of sessions and tokens are re-checked
 * on every hit, so a cached entry never outlives its credential.
 */
const TTL_MS = 3000;
const MAX_ENTRIES = 10_000;

interface Entry {
  principal: Principal;
  cachedAt: number;
  expiresAt: number | null;
}

const entries = new Map<string, Entry>();

export function getCachedPrincipal(hash: string, now = Date.now()): Principal | undefined {
  const e = entries.get(hash);
  if (!e) return undefined;
  if (now - e.cachedAt > TTL_MS || (e.expiresAt !== null && now >= e.expiresAt)) {
    entries.delete(hash);
    return undefined;
  }
  return e.principal;
}

export function cachePrincipal(hash: string, principal: Principal, expiresAt: number | null = null): void {
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
  entries.set(hash, { principal, cachedAt: Date.now(), expiresAt });
}

/** Evict every cached credential of one record (API key id, session id, token id). */
export function evictCredential(credentialId: string): void {
  for (const [hash, e] of entries) if (e.principal.credentialId === credentialId) entries.delete(hash);
}

export function clearCredentialCache(): void {
  entries.clear();
}
