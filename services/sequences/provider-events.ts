import { z } from 'zod';
import type { Db } from '../../db/knex';
import type { MailClass } from '../../domain/mail-classify';
import { transactionWithOutbox, type OutboxStarter } from '../../temporal/outbox';
import { applyToSend, findSend } from './mail-events';
import { unsubscribeContact } from './unsubscribes';

/** One event of SendGrid's Event Webhook (the fields we use; others are kept but ignored). */
export const zSendgridEvent = z.looseObject({
  event: z.string().max(50),
  email: z.string().max(320).optional(),
  timestamp: z.number().optional(),
  'smtp-id': z.string().max(1000).optional(),
  sg_message_id: z.string().max(1000).optional(),
  type: z.string().max(50).optional(),
  status: z.string().max(50).optional(),
  reason: z.string().max(2000).optional(),
  fss_token: z.string().max(100).optional(),
});
export const zSendgridEvents = z.array(zSendgridEvent).max(5000);
export type SendgridEvent = z.infer<typeof zSendgridEvent>;

function asClass(e: SendgridEvent): MailClass | null {
  switch (e.event) {
    case 'bounce':
      return {
        kind: 'bounce',
        type: e.type === 'blocked' ? 'soft' : 'hard',
        status: e.status ?? null,
        diagnostic: e.reason ?? null,
        recipient: e.email ?? null,
        standard: true,
      };
    case 'spamreport':
      return { kind: 'complaint', feedbackType: 'abuse' };
    default:
      return null;
  }
}

/**
 * Apply provider events to the sends they name (`smtp-id` is the Message-ID we sent; a
 * `fss_token` custom argument names the send directly): delivered, bounce (blocked = soft),
 * spamreport, open, click, unsubscribe. Unknown messages and events are ignored. Returns how many applied.
 */
export async function applySendgridEvents(db: Db, outbox: OutboxStarter, events: SendgridEvent[]): Promise<number> {
  let applied = 0;
  for (const e of events) {
    const messageIds = [...(e['smtp-id'] ?? '').matchAll(/<[^<>\s]+>/g)].map((m) => m[0]);
    const done = await transactionWithOutbox(db, outbox, async (trx, enqueue) => {
      const send = await findSend(trx, { class: { kind: 'unknown', reason: '' }, tokens: e.fss_token ? [e.fss_token] : [], messageIds });
      if (!send) return false;
      const row = trx('sequence_sends').where({ id: send.id });
      const cls = asClass(e);
      if (cls) await applyToSend(trx, enqueue, send, cls);
      else if (e.event === 'delivered') await row.update({ delivered_at: trx.raw('COALESCE(delivered_at, now())') });
      else if (e.event === 'open') await row.update({ opened_at: trx.raw('COALESCE(opened_at, now())') });
      else if (e.event === 'click')
        await row.update({ clicked_at: trx.raw('COALESCE(clicked_at, now())'), opened_at: trx.raw('COALESCE(opened_at, now())') });
      else if (e.event === 'unsubscribe' || e.event === 'group_unsubscribe') {
        await row.update({ unsubscribed_at: trx.raw('COALESCE(unsubscribed_at, now())') });
        await unsubscribeContact(trx, enqueue, send.team_id, send.contact_id, ['email'], 'provider');
      } else return false;
      return true;
    });
    if (done) applied++;
  }
  return applied;
}
