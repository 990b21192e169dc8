import { z } from 'zod';
import type { MailClass } from '../../domain/mail-classify';
import { transactionWithOutbox } from '../../temporal/outbox';
import type { ServiceDeps } from '../deps';
import type { Executor } from '../../db/knex';
import { sendgridIdPrefixes } from '../../domain/mail-address';
import { smtpAnswerBlock } from '../../domain/mail-block';
import { applyToSend, findSend, type SendRow } from './returned';
import { unsubscribeContact } from '../sequence-exits/unsubscribe';

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
  /** Open events: SendGrid's own verdict that Apple Mail Privacy Protection fetched the pixel. */
  sg_machine_open: z.boolean().optional(),
  useragent: z.string().max(2000).optional(),
  ip: z.string().max(100).optional(),
});
export const zSendgridEvents = z.array(zSendgridEvent).max(5000);
export type SendgridEvent = z.infer<typeof zSendgridEvent>;

function asClass(e: SendgridEvent): MailClass | null {
  switch (e.event) {
    case 'bounce': {
      // SendGrid's `blocked` is a block; so is a `bounce` whose reason is one (a 5.7.1 for spam…).
      const reason = smtpAnswerBlock(`${e.status ?? ''} ${e.reason ?? ''}`);
      const block = e.type === 'blocked' ? (reason ?? 'policy') : reason;
      const common = {
        kind: 'bounce',
        status: e.status ?? null,
        diagnostic: e.reason ?? null,
        recipient: e.email ?? null,
        standard: true,
      } as const;
      return block ? { ...common, type: 'block', block } : { ...common, type: 'hard' };
    }
    case 'spamreport':
      return { kind: 'complaint', feedbackType: 'abuse' };
    default:
      return null;
  }
}

/**
 * The send an event names: `smtp-id` (the Message-ID we sent) or an `fss_token` custom argument;
 * else `sg_message_id`, which starts with the X-Message-Id SendGrid answered at DATA ("250 Ok:
 * queued as <id>"), kept by the send as `smtp_queue_id`.
 */
export async function sendOfEvent(trx: Executor, e: SendgridEvent): Promise<SendRow | undefined> {
  const messageIds = [...(e['smtp-id'] ?? '').matchAll(/<[^<>\s]+>/g)].map((m) => m[0]);
  const named = await findSend(trx, { class: { kind: 'unknown', reason: '' }, tokens: e.fss_token ? [e.fss_token] : [], messageIds });
  if (named || !e.sg_message_id) return named;
  const prefixes = sendgridIdPrefixes(e.sg_message_id);
  if (!prefixes.length) return undefined;
  // The longest matching prefix wins (ids are unique; this only guards against a short one).
  return trx('sequence_sends')
    .whereIn('smtp_queue_id', prefixes)
    .where({ channel: 'email' })
    .orderByRaw('length(smtp_queue_id) DESC')
    .first('id', 'team_id', 'sequence_id', 'enrollment_id', 'contact_id', 'step_id', 'message_id');
}

/** When the event happened (its `timestamp`, unix seconds), not when it arrived. */
export const timeOfEvent = (e: SendgridEvent): Date => (e.timestamp ? new Date(e.timestamp * 1000) : new Date());

/** The events mail applies itself; opens and clicks are engagement (services/sequences/engagement-events.ts). */
const MAIL_EVENTS: ReadonlySet<string> = new Set(['delivered', 'bounce', 'spamreport', 'unsubscribe', 'group_unsubscribe']);

/**
 * Apply what came back through the provider to the sends the events name (see sendOfEvent):
 * delivered, bounce (`blocked`, or a reason that is a block: a block), spamreport, unsubscribe. Opens, clicks, unknown messages and
 * other events are left alone. Returns how many applied.
 */
export async function applySendgridEvents(
  deps: Pick<ServiceDeps, 'db' | 'outbox'>,
  { events }: { events: SendgridEvent[] },
): Promise<number> {
  const { db, outbox } = deps;
  let applied = 0;
  for (const e of events) {
    if (!MAIL_EVENTS.has(e.event)) continue;
    const done = await transactionWithOutbox(db, outbox, async (trx, enqueue) => {
      const send = await sendOfEvent(trx, e);
      if (!send) return false;
      const row = trx('sequence_sends').where({ id: send.id });
      const cls = asClass(e);
      if (cls) await applyToSend(trx, enqueue, { send, cls });
      // When it happened, not when the (batched) event arrived.
      else if (e.event === 'delivered') await row.update({ delivered_at: trx.raw('COALESCE(delivered_at, ?)', [timeOfEvent(e)]) });
      else {
        await row.update({ unsubscribed_at: trx.raw('COALESCE(unsubscribed_at, now())') });
        await unsubscribeContact(trx, enqueue, {
          teamId: send.team_id,
          contactId: send.contact_id,
          channels: ['email'],
          source: 'provider',
        });
      }
      return true;
    });
    if (done) applied++;
  }
  return applied;
}
