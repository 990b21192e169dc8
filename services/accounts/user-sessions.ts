import type { SessionsRow } from '../../db/tables';
import type { ServiceDeps } from '../deps';
import type { Principal } from '../../core/principal';
import { notFound } from '../../core/errors';
import { evictCredential } from '../credentials/cache';
import { paginate, type Page } from '../pagination';
import { deleteUserSessions, evictAll } from './revoke';

type SessionRow = Pick<SessionsRow, 'id' | 'created_at' | 'last_used_at' | 'expires_at' | 'user_agent' | 'ip'>;

const present = (currentId: string) => (s: SessionRow) => ({
  id: s.id,
  created_at: s.created_at,
  last_used_at: s.last_used_at,
  expires_at: s.expires_at,
  user_agent: s.user_agent,
  ip: s.ip,
  current: s.id === currentId,
});

/** The acting user's live sessions, newest first; `current` marks the one making the request. */
export function listMySessions(deps: Pick<ServiceDeps, 'db'>, { principal, page }: { principal: Principal; page: Page }) {
  const { db } = deps;
  return paginate(
    db('sessions')
      .where({ user_id: principal.userId })
      .where('expires_at', '>', db.fn.now())
      .select('id', 'created_at', 'last_used_at', 'expires_at', 'user_agent', 'ip'),
    page,
    [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ],
    present(principal.credentialId),
  );
}

/** Sign out one of my sessions (the current one too: that is a log-out). Another user's session is a 404. */
export async function revokeMySession(
  deps: Pick<ServiceDeps, 'db'>,
  { principal, sessionId }: { principal: Principal; sessionId: string },
): Promise<void> {
  const n = await deps.db('sessions').where({ id: sessionId, user_id: principal.userId }).delete();
  if (!n) throw notFound('Session');
  evictCredential(sessionId);
}

/** Sign out every session of mine but the current one. */
export async function revokeOtherSessions(
  deps: Pick<ServiceDeps, 'db'>,
  { principal }: { principal: Principal },
): Promise<{ revoked: number }> {
  const ids = await deleteUserSessions(deps.db, { userId: principal.userId, exceptSessionId: principal.credentialId });
  evictAll(ids);
  return { revoked: ids.length };
}
