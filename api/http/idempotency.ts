import type { Context } from 'koa';
import { sha256Hex } from '../../core/crypto';
import type { Db } from '../../db/knex';
import { ApiError, badRequest } from '../../core/errors';

const TTL_MS = 24 * 3600 * 1000;

/**
 * Stripe-style Idempotency-Key: the first response of a (credential, key) pair is stored
 * for 24 h and replayed for retries of the same request. A different request under the
 * same key, or a retry while the first is still running, gets 409.
 */
export async function withIdempotency(db: Db, ctx: Context, scope: string, run: () => Promise<void>): Promise<void> {
  const key = ctx.get('idempotency-key');
  if (!key) return run();
  if (key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  const requestHash = sha256Hex(`${ctx.method} ${ctx.path}\n${JSON.stringify(ctx.request.body ?? null)}`);
  await db('idempotency_keys')
    .where({ scope, key })
    .where('created_at', '<', new Date(Date.now() - TTL_MS))
    .delete();
  const inserted = await db('idempotency_keys')
    .insert({ scope, key, method: ctx.method, path: ctx.path, request_hash: requestHash })
    .onConflict(['scope', 'key'])
    .ignore()
    .returning('key');
  if (inserted.length === 0) {
    const row = await db('idempotency_keys').where({ scope, key }).first();
    if (!row || row.request_hash !== requestHash) {
      throw new ApiError(409, 'conflict', 'This Idempotency-Key was already used with a different request');
    }
    if (row.status === null) {
      throw new ApiError(409, 'conflict', 'A request with this Idempotency-Key is still in progress');
    }
    ctx.status = row.status;
    if (row.body !== null) ctx.body = row.body;
    ctx.set('Idempotent-Replayed', 'true');
    return;
  }
  try {
    await run();
  } catch (err) {
    await db('idempotency_keys').where({ scope, key }).delete();
    throw err;
  }
  if (ctx.status >= 500) {
    await db('idempotency_keys').where({ scope, key }).delete();
    return;
  }
  await db('idempotency_keys')
    .where({ scope, key })
    .update({ status: ctx.status, body: ctx.body === undefined ? null : JSON.stringify(ctx.body) });
}
