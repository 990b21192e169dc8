import crypto from 'node:crypto';
import type { Executor } from '../db/knex';
import type { ServiceDeps } from './deps';

const caches = new WeakMap<Executor, Map<string, Promise<Buffer>>>();

/**
 * A secret the service makes for itself: read from `app_secrets`, or created once (32 random bytes;
 * a concurrent first use by another process keeps whichever row was written first). Cached per
 * process. Used where every process must agree on a key and no operator should have to set one.
 */
export function appSecret(deps: Pick<ServiceDeps, 'db'>, { name }: { name: string }): Promise<Buffer> {
  const { db } = deps;
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let p = cache.get(name);
  if (!p) {
    p = (async () => {
      await db('app_secrets')
        .insert({ name, value: crypto.randomBytes(32).toString('base64') })
        .onConflict('name')
        .ignore();
      const row = await db('app_secrets').where({ name }).first('value');
      if (!row) throw new Error(`app secret ${name} was not stored`);
      return Buffer.from(row.value, 'base64');
    })();
    const forget = cache;
    p.catch(() => forget.delete(name));
    cache.set(name, p);
  }
  return p;
}
