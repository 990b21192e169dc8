import type { Executor } from '../db/knex';
import { randomToken, sha256Hex } from '../core/crypto';
import { verifyPassword } from '../core/passwords';
import { SESSION_PREFIX } from './credentials/session';
import { evictCredential } from './credentials/cache';
import { unauthorized } from '../core/errors';

export const SESSION_TTL_MS = 12 * 3600 * 1000;

// A real hash to verify against when the email is unknown, so timing does not reveal accounts.
const DUMMY_HASH = '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHRzb21lc2FsdA$Hc7Y8uS0nIDnM0tEj2zcY8v8Pn6cF0rjpOWRzYDGGbk';

export async function createSession(db: Executor, userId: string) {
  const token = `${SESSION_PREFIX}${randomToken(32)}`;
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await db('sessions').insert({ user_id: userId, token_hash: sha256Hex(token), expires_at: expiresAt });
  return { token, expiresAt };
}

/** Email + password → a session. Wrong credentials get one message, whichever part was wrong. */
export async function login(db: Executor, email: string, password: string) {
  const user = await db('users').where({ email }).first('id', 'team_id', 'password_hash');
  const ok = await verifyPassword(user?.password_hash ?? DUMMY_HASH, password);
  if (!user || !user.password_hash || !ok) throw unauthorized('Wrong email or password');
  const { token, expiresAt } = await createSession(db, user.id);
  return { token, expires_at: expiresAt.toISOString(), user_id: user.id as string, team_id: user.team_id as string };
}

export async function logout(db: Executor, sessionId: string): Promise<void> {
  await db('sessions').where({ id: sessionId }).delete();
  evictCredential(sessionId);
}
