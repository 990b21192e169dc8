import { safeEqual, sha256Hex } from '../../core/crypto';
import type { ServiceDeps } from '../deps';
import { requestSyncSoon } from './sync-workflow';

/**
 * Google's push notification (docs/calendars.md "Google Calendar"): X-Goog-Channel-ID names one of
 * our channels and X-Goog-Channel-Token must hash to the one stored for it (compared timing-safe).
 * An unknown or stopped channel, or a wrong token, changes nothing and makes no call to Google. A
 * right one signals the connection's sync workflow (signal-with-start through the outbox port), which
 * reads what changed; the route answers at once. The first message of a channel (`sync`) needs nothing.
 */
export type GooglePushOutcome = 'ignored' | 'refused' | 'signalled';

export async function handleGooglePush(
  deps: Pick<ServiceDeps, 'db' | 'outbox'>,
  input: { channelId: string; token: string; resourceState: string },
): Promise<GooglePushOutcome> {
  if (!input.channelId || input.channelId.length > 64) return 'ignored';
  const ch = await deps
    .db('calendar_push_channels as p')
    .join('calendar_connections as c', 'c.id', 'p.connection_id')
    .where('p.id', input.channelId)
    .first('p.token_hash', 'c.id', 'c.team_id', 'c.user_id', 'c.kind', 'c.status');
  if (!ch) return 'ignored';
  if (!safeEqual(sha256Hex(input.token), ch.token_hash as string)) return 'refused';
  if (ch.status === 'disconnecting' || input.resourceState === 'sync') return 'ignored';
  await requestSyncSoon(deps, { id: ch.id, team_id: ch.team_id, user_id: ch.user_id, kind: ch.kind });
  return 'signalled';
}
