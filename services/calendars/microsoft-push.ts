import { safeEqual, sha256Hex } from '../../core/crypto';
import type { ServiceDeps } from '../deps';
import { requestSyncSoon } from './sync-workflow';

/**
 * Graph's change and lifecycle notifications (docs/calendars.md "Microsoft 365"). Each notification
 * names a subscription of ours and carries its clientState, which must hash to the one stored for it
 * (compared timing-safe, as hashes). An unknown or deleted subscription, or a wrong clientState,
 * changes nothing and makes no call to Graph. A right one signals the connection's sync workflow
 * (signal-with-start through the outbox port) and the route answers at once; lifecycle notices only
 * mark what the sync must do (it makes the Graph calls):
 * - `reauthorizationRequired`: the subscription's expiry is set to now, so the sync renews it (PATCH);
 * - `subscriptionRemoved`: its row is deleted, so the sync makes a new one;
 * - `missed`: a sync reads the deltaLink, which holds every change since the last read.
 * The route makes no provider call.
 */
export type MicrosoftPushOutcome = 'ignored' | 'refused' | 'signalled';

export interface GraphNotification {
  subscriptionId?: string;
  clientState?: string;
  changeType?: string;
  lifecycleEvent?: string;
}

export async function handleMicrosoftPush(
  deps: Pick<ServiceDeps, 'db' | 'outbox'>,
  input: { notifications: GraphNotification[] },
): Promise<MicrosoftPushOutcome> {
  const { db } = deps;
  let refused = false;
  const wake = new Map<string, { id: string; team_id: string; user_id: string; kind: string }>();
  for (const n of input.notifications.slice(0, 100)) {
    const id = n.subscriptionId ?? '';
    if (!id || id.length > 100) continue;
    const sub = await db('calendar_push_channels as p')
      .join('calendar_connections as c', 'c.id', 'p.connection_id')
      .where('p.id', id)
      .where('c.kind', 'microsoft')
      .first('p.token_hash', 'c.id', 'c.team_id', 'c.user_id', 'c.kind', 'c.status');
    if (!sub) continue;
    if (!safeEqual(sha256Hex(n.clientState ?? ''), sub.token_hash as string)) {
      refused = true;
      continue;
    }
    if (sub.status === 'disconnecting') continue;
    if (n.lifecycleEvent === 'reauthorizationRequired') await db('calendar_push_channels').where({ id }).update({ expires_at: new Date() });
    else if (n.lifecycleEvent === 'subscriptionRemoved') await db('calendar_push_channels').where({ id }).delete();
    wake.set(sub.id, { id: sub.id, team_id: sub.team_id, user_id: sub.user_id, kind: sub.kind });
  }
  for (const conn of wake.values()) await requestSyncSoon(deps, conn);
  if (wake.size) return 'signalled';
  return refused ? 'refused' : 'ignored';
}
