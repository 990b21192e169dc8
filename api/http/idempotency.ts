import type { Context } from 'koa';
import { badRequest } from '../../core/errors';
import type { ServiceDeps } from '../../services/deps';
import { beginIdempotent, finishIdempotent, idempotencySlot, releaseIdempotent } from '../../services/idempotency/store';

/**
 * Stripe-style Idempotency-Key: the first answer of a (credential, key) pair is kept for 24 h,
 * sealed, and replayed for retries of the same request. A different request under the same key,
 * or a retry while the first still holds its lease, gets 409 (services/idempotency/store.ts).
 */
export async function withIdempotency(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  ctx: Context,
  scope: string,
  run: () => Promise<void>,
): Promise<void> {
  const key = ctx.get('idempotency-key');
  if (!key) return run();
  if (key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  const request = `${ctx.method} ${ctx.path}\n${JSON.stringify(ctx.request.body ?? null)}`;
  const slot = idempotencySlot(deps, { scope, clientKey: key, request });
  const begun = await beginIdempotent(deps, slot);
  if (begun.kind === 'replay') {
    ctx.status = begun.status;
    if (begun.body !== undefined) ctx.body = begun.body;
    ctx.set('Idempotent-Replayed', 'true');
    return;
  }
  try {
    await run();
  } catch (err) {
    await releaseIdempotent(deps, slot);
    throw err;
  }
  if (ctx.status >= 500) {
    await releaseIdempotent(deps, slot);
    return;
  }
  await finishIdempotent(deps, { slot, status: ctx.status, body: ctx.body === null ? undefined : ctx.body });
}
