import crypto from 'node:crypto';
import type { ServiceDeps } from '../deps';
import { atRestKey, SecretBox } from '../../core/secret-box';
import { ApiError } from '../../core/errors';

/** How long an answer is kept for a retry with the same Idempotency-Key. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** How long a request holds its key; a request that died mid-way frees it after this long. */
export const IDEMPOTENCY_LEASE_MS = 60_000;

/**
 * What a row is keyed and sealed by, derived from the client's Idempotency-Key and the server's
 * at-rest key (docs/decisions.md "Idempotency"): the row holds an HMAC of the client's key, and the
 * answer sealed under a key only a client that sends the same Idempotency-Key again can derive.
 * A database reader learns neither the answer nor the key, even for a guessable key.
 */
export interface IdempotencySlot {
  scope: string;
  keyHash: string;
  box: SecretBox;
  requestMac: string;
}

export function idempotencySlot(
  deps: Pick<ServiceDeps, 'config'>,
  input: { scope: string; clientKey: string; request: string },
): IdempotencySlot {
  const server = atRestKey(deps.config);
  const keyHash = crypto.createHmac('sha256', server).update(`idempotency-key\n${input.scope}\n${input.clientKey}`).digest('hex');
  const sealKey = Buffer.from(crypto.hkdfSync('sha256', input.clientKey, server, `idempotency-seal\n${input.scope}`, 32));
  const requestMac = crypto.createHmac('sha256', sealKey).update(input.request).digest('hex');
  return { scope: input.scope, keyHash, box: new SecretBox(sealKey), requestMac };
}

export type BeginResult = { kind: 'run' } | { kind: 'replay'; status: number; body: unknown };

/**
 * Claim the slot for this request, or find the stored answer to replay. 409 for the same key with
 * a different request, or while another request with the key holds its lease.
 */
export async function beginIdempotent(deps: Pick<ServiceDeps, 'db'>, slot: IdempotencySlot): Promise<BeginResult> {
  const { db } = deps;
  const where = { scope: slot.scope, key_hash: slot.keyHash };
  const lease = db.raw(`now() + make_interval(secs => ?)`, [IDEMPOTENCY_LEASE_MS / 1000]);
  await db('idempotency_keys')
    .where(where)
    .where('created_at', '<', db.raw(`now() - make_interval(secs => ?)`, [IDEMPOTENCY_TTL_MS / 1000]))
    .delete();
  const inserted = await db('idempotency_keys')
    .insert({ ...where, request_mac: slot.requestMac, locked_until: lease })
    .onConflict(['scope', 'key_hash'])
    .ignore()
    .returning('key_hash');
  if (inserted.length > 0) return { kind: 'run' };
  const row = await db('idempotency_keys').where(where).first();
  if (!row || row.request_mac !== slot.requestMac) {
    throw new ApiError(409, 'conflict', 'This Idempotency-Key was already used with a different request');
  }
  if (row.status === null) {
    // Take over a lease that ran out: the request holding it died before it finished.
    const taken = await db('idempotency_keys')
      .where(where)
      .whereNull('status')
      .where('locked_until', '<=', db.fn.now())
      .update({ locked_until: lease })
      .returning('key_hash');
    if (taken.length > 0) return { kind: 'run' };
    throw new ApiError(409, 'conflict', 'A request with this Idempotency-Key is still in progress');
  }
  const body = row.body_sealed === null ? undefined : (JSON.parse(slot.box.open(row.body_sealed, slot.keyHash)) as unknown);
  return { kind: 'replay', status: row.status, body };
}

/** Store the answer, sealed, for replays. */
export async function finishIdempotent(
  deps: Pick<ServiceDeps, 'db'>,
  input: { slot: IdempotencySlot; status: number; body: unknown },
): Promise<void> {
  const { slot } = input;
  await deps
    .db('idempotency_keys')
    .where({ scope: slot.scope, key_hash: slot.keyHash })
    .update({
      status: input.status,
      body_sealed: input.body === undefined ? null : slot.box.seal(JSON.stringify(input.body), slot.keyHash),
    });
}

/** Free the key: the request failed, and a retry should run it again. */
export async function releaseIdempotent(deps: Pick<ServiceDeps, 'db'>, slot: IdempotencySlot): Promise<void> {
  await deps.db('idempotency_keys').where({ scope: slot.scope, key_hash: slot.keyHash }).delete();
}
