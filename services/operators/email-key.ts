import { hmacSha256Hex } from '../../core/crypto';
import { appSecret } from '../app-secrets';
import type { ServiceDeps } from '../deps';

/** The app secret (app_secrets) that keys the `ContactEmailKey` search attribute. */
export const EMAIL_KEY_SECRET = 'temporal_email_key';

/** The form an address is keyed in: trimmed, lower case (as contacts are matched). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A function from an email to its `ContactEmailKey` value: the first 32 hex digits of
 * HMAC-SHA256(app secret `temporal_email_key`, normalised address). The visibility store then holds
 * no address in the clear, and the value cannot be reversed without the secret (docs/operators.md).
 * Read once per process and database handle: call it with the long-lived `deps.db`, before a
 * transaction, and use the function inside.
 */
export async function emailKeyer(deps: Pick<ServiceDeps, 'db'>): Promise<(email: string) => string> {
  const key = await appSecret(deps, { name: EMAIL_KEY_SECRET });
  return (email) => hmacSha256Hex(key, normaliseEmail(email)).slice(0, 32);
}

/** The Temporal visibility query that finds the workflows naming this contact's email. */
export async function emailKeyQuery(deps: Pick<ServiceDeps, 'db'>, input: { email: string }): Promise<string> {
  const keyOf = await emailKeyer(deps);
  return `ContactEmailKey = "${keyOf(input.email)}"`;
}
