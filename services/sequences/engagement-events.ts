import type { ServiceDeps } from '../deps';
import { sendOfEvent, timeOfEvent, type SendgridEvent } from '../mail/provider-events';
import { recordClickOf, recordOpenOf, type Seen } from './tracking';

/** What an open or click event says about who made it. */
const seenOf = (e: SendgridEvent): Seen => ({ userAgent: e.useragent ?? null, ip: e.ip ?? null, at: timeOfEvent(e) });

/**
 * The engagement in a provider's events: opens (machine opens apart: `sg_machine_open`, or the
 * same heuristics as our pixel) and clicks (scanner clicks apart), on the sends they name. What
 * came back (delivered, bounce, complaint, unsubscribe) is mail's: services/mail/provider-events.ts.
 * Returns how many applied.
 */
export async function applySendgridEngagement(deps: Pick<ServiceDeps, 'db'>, { events }: { events: SendgridEvent[] }): Promise<number> {
  const { db } = deps;
  let applied = 0;
  for (const e of events) {
    if (e.event !== 'open' && e.event !== 'click') continue;
    const done = await db.transaction(async (trx) => {
      const found = await sendOfEvent(trx, e);
      if (!found) return false;
      const send = (await trx('sequence_sends').where({ id: found.id }).first('id', 'accepted_at', 'delivered_at'))!;
      if (e.event === 'open' && e.sg_machine_open)
        await trx('sequence_sends')
          .where({ id: send.id })
          .update({ machine_opened_at: trx.raw('COALESCE(machine_opened_at, now())') });
      else if (e.event === 'open') await recordOpenOf(trx, { send, seen: seenOf(e) });
      else await recordClickOf(trx, { send, seen: seenOf(e) });
      return true;
    });
    if (done) applied++;
  }
  return applied;
}
