import type { Mailer } from '../../core/mailer';
import { logger } from '../../core/logger';
import type { Db } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import { calendarReauthMail } from '../mail/render/calendars';
import { mailHost, publicUrl } from '../mail/render/links';
import type { ConnectionRow } from './rows';
import { markNeedsReauth } from './event-store';
import type { SyncResult } from './sync-result';

/**
 * A Google or Microsoft connection its provider no longer accepts (`invalid_grant`, Microsoft's
 * expired-by-inactivity AADSTS700082, or a 401 that survived a forced refresh), from a sync or a write-back (docs/calendars.md "Fail closed"): the connection becomes
 * `needs_reauth` (its host then offers no times), and its host is emailed **once**: the send is
 * claimed with `reauth_email_sent_at` (a conditional update), so a retried activity or the next
 * sync does not send it again; a send that fails releases the claim and the next sync tries again.
 * Connecting the account again clears it (oauth-connect.ts).
 */
type Deps = Pick<ServiceDeps, 'db' | 'config'> & { mailer?: Mailer };

export const NEEDS_REAUTH_MESSAGE =
  'Google no longer accepts this connection (access was revoked or expired): connect Google Calendar again';

export const MICROSOFT_NEEDS_REAUTH_MESSAGE =
  'Microsoft no longer accepts this connection (access was revoked, or it expired after 90 days unused): connect Microsoft 365 again';

/** The connection marked needs_reauth (with the provider's sentence, or `message`), then its host emailed once. */
export async function markNeedsReauthAndEmail(
  deps: Deps,
  input: { row: Pick<ConnectionRow, 'id' | 'team_id' | 'user_id' | 'kind'>; now: number; interval?: number; message?: string },
): Promise<SyncResult> {
  const message = input.message ?? (input.row.kind === 'microsoft' ? MICROSOFT_NEEDS_REAUTH_MESSAGE : NEEDS_REAUTH_MESSAGE);
  const result = await markNeedsReauth(deps, { ...input, interval: input.interval ?? 0, message });
  await emailHostSoon(deps, { connectionId: input.row.id });
  return result;
}

/** emailHostOnce, a failed send logged (the next sync of the connection tries again). */
export async function emailHostSoon(deps: Deps, input: { connectionId: string }): Promise<void> {
  try {
    await emailHostOnce(deps, input);
  } catch (err) {
    logger.warn(
      { connectionId: input.connectionId, error: String(err) },
      'the email about a calendar connection to connect again failed; retried at the next sync',
    );
  }
}

/** The one email about a `needs_reauth` connection (a no-op once sent, or without a mailer). */
export async function emailHostOnce(deps: Deps, input: { connectionId: string }): Promise<'sent' | 'already' | 'skipped'> {
  const { db, config, mailer } = deps;
  if (!mailer) return 'skipped';
  const claimed = await claim(db, input.connectionId);
  if (!claimed) return 'already';
  const host = await db('users').where({ id: claimed.user_id }).whereNull('removed_at').first('email');
  if (!host) return 'skipped';
  const provider = claimed.kind === 'microsoft' ? 'Microsoft' : 'Google';
  const mail = calendarReauthMail({
    provider,
    accountEmail: claimed.account_email ?? `your ${provider} account`,
    url: publicUrl(config, '/'),
  });
  try {
    await mailer.send({
      to: host.email,
      ...mail,
      messageId: `<calendar-reauth-${claimed.id}-${claimed.at.getTime()}@${mailHost(config)}>`,
      headers: { 'X-Calendar-Connection-Id': claimed.id },
    });
  } catch (err) {
    await db('calendar_connections').where({ id: claimed.id, reauth_email_sent_at: claimed.at }).update({ reauth_email_sent_at: null });
    throw err;
  }
  return 'sent';
}

async function claim(db: Db, connectionId: string) {
  const at = new Date();
  const [row] = (await db('calendar_connections')
    .where({ id: connectionId, status: 'needs_reauth' })
    .whereIn('kind', ['google', 'microsoft'])
    .whereNull('reauth_email_sent_at')
    .update({ reauth_email_sent_at: at })
    .returning(['id', 'user_id', 'account_email', 'kind'])) as Array<{
    id: string;
    user_id: string;
    account_email: string | null;
    kind: string;
  }>;
  return row ? { ...row, at } : null;
}
