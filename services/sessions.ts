import type { Executor } from '../db/knex';
import type { ServiceDeps } from './deps';
import { randomToken, sha256Hex } from '../core/crypto';
import { dummyHash, verifyPassword } from '../core/passwords';
import { SESSION_PREFIX } from './credentials/session';
import { evictCredential } from './credentials/cache';
import { unauthorized } from '../core/errors';
import { checkLoginAllowed, recordLoginFailure, recordLoginSuccess } from './accounts/throttle';

export const SESSION_TTL_MS = 12 * 3600 * 1000;

/** Where a sign-in came from: shown in the user's list of sessions. */
export interface ClientInfo {
  ip?: string;
  userAgent?: string;
}

export async function createSession(trx: Executor, { userId, client = {} }: { userId: string; client?: ClientInfo }) {
  const token = `${SESSION_PREFIX}${randomToken(32)}`;
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await trx('sessions').insert({
    user_id: userId,
    token_hash: sha256Hex(token),
    expires_at: expiresAt,
    last_used_at: trx.fn.now(),
    ip: client.ip?.slice(0, 100) || null,
    user_agent: client.userAgent?.slice(0, 500) || null,
  });
  return { token, expiresAt };
}

export interface LoginInput {
  email: string;
  password: string;
  client?: ClientInfo;
}

/**
 * Email + password → a session. Every failure (unknown address, wrong password, no password set,
 * removed member) gets the same 401 after the same work (a hash is always verified). Failures are
 * throttled per address and per IP with a growing delay (accounts/throttle.ts): 429 while locked.
 */
export async function login(deps: Pick<ServiceDeps, 'db' | 'config'>, { email, password, client = {} }: LoginInput) {
  const { db } = deps;
  const ip = client.ip ?? '';
  await checkLoginAllowed(deps, { email, ip });
  const user = await db('users').where({ email }).whereNull('removed_at').first('id', 'team_id', 'password_hash');
  const ok = await verifyPassword(user?.password_hash ?? (await dummyHash(deps.config)), password);
  if (!user || !user.password_hash || !ok) {
    await recordLoginFailure(deps, { email, ip });
    throw unauthorized('Wrong email or password');
  }
  await recordLoginSuccess(deps, { email, ip });
  const { token, expiresAt } = await createSession(db, { userId: user.id, client });
  return { token, expires_at: expiresAt.toISOString(), user_id: user.id as string, team_id: user.team_id as string };
}

export async function logout(deps: Pick<ServiceDeps, 'db'>, { sessionId }: { sessionId: string }): Promise<void> {
  await deps.db('sessions').where({ id: sessionId }).delete();
  evictCredential(sessionId);
}
