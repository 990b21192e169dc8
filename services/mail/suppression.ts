import { createHmac } from 'node:crypto';
import path from 'node:path';
import { ConfigError, type Config } from '../../core/config';
import type { Executor } from '../../db/knex';
import { readOrCreateKeyFile } from '../../core/secret-box';

/**
 * The email suppression list (docs/sequences.md "Suppression list"): per team, an HMAC-SHA256 of
 * the normalised address of a person who unsubscribed or whose address hard-bounced. A contact's
 * own flags say it while the contact exists; the erase of the contact writes the hash, which is
 * all that is kept. Enrollment checks both, so a new contact with the same address is skipped
 * with the same `skip_reason`.
 */
export type SuppressionReason = 'unsubscribed' | 'email_undeliverable';

type KeyConfig = Pick<Config, 'MAIL_SUPPRESSION_KEY' | 'NODE_ENV' | 'dataDir'>;

const keys = new Map<string, Buffer>();

function keyBytes(v: string): Buffer {
  const t = v.trim();
  return /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
}

/** `MAIL_SUPPRESSION_KEY`, or outside production a key generated once under the data directory. */
export function suppressionKey(config: KeyConfig): Buffer {
  const cacheKey = config.MAIL_SUPPRESSION_KEY ?? `file:${config.dataDir}`;
  const hit = keys.get(cacheKey);
  if (hit) return hit;
  if (!config.MAIL_SUPPRESSION_KEY && config.NODE_ENV === 'production') {
    throw new ConfigError('Invalid configuration:\n  MAIL_SUPPRESSION_KEY: required in production (base64 of 32 bytes)');
  }
  const key = keyBytes(config.MAIL_SUPPRESSION_KEY ?? readOrCreateKeyFile(path.join(config.dataDir, 'mail-suppression.key')));
  keys.set(cacheKey, key);
  return key;
}

/** The normal form that is hashed: trimmed and lower-cased; a plus-tag is kept (it may be its own mailbox). */
export function normaliseAddress(email: string): string {
  return email.trim().toLowerCase();
}

export function addressHash(key: Buffer, email: string): string {
  return createHmac('sha256', key).update(normaliseAddress(email)).digest('hex');
}

export interface SuppressInput {
  teamId: string;
  key: Buffer;
  email: string;
  reasons: SuppressionReason[];
  source: string;
}

/** Record an address on the team's list, in the caller's transaction (idempotent). */
export async function suppressAddress(trx: Executor, input: SuppressInput): Promise<void> {
  if (!input.reasons.length) return;
  const hash = addressHash(input.key, input.email);
  await trx('email_suppressions')
    .insert(input.reasons.map((reason) => ({ team_id: input.teamId, address_hash: hash, reason, source: input.source })))
    .onConflict(['team_id', 'address_hash', 'reason'])
    .ignore();
}

export interface SuppressedInput {
  teamId: string;
  key: Buffer;
  emails: string[];
}

/** The suppressed addresses among `emails` (normalised), with their reasons. */
export async function suppressedAddresses(db: Executor, input: SuppressedInput): Promise<Map<string, Set<SuppressionReason>>> {
  const byHash = new Map(input.emails.map((e) => [addressHash(input.key, e), normaliseAddress(e)]));
  const out = new Map<string, Set<SuppressionReason>>();
  if (!byHash.size) return out;
  const rows = await db('email_suppressions')
    .where('team_id', input.teamId)
    .whereIn('address_hash', [...byHash.keys()])
    .select('address_hash', 'reason');
  for (const r of rows) {
    const email = byHash.get(r.address_hash)!;
    if (!out.has(email)) out.set(email, new Set());
    out.get(email)!.add(r.reason);
  }
  return out;
}
