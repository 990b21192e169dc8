import type { SequenceSendsRow } from '../../db/tables';
import type { Executor } from '../../db/knex';
import type { Classified, MailClass } from '../../domain/mail-classify';
import { transactionWithOutbox, type Enqueue } from '../../temporal/outbox';
import type { ServiceDeps } from '../deps';
import { exitEnrollments } from '../sequence-exits/exits';
import { unsubscribeContact } from '../sequence-exits/unsubscribe';
import { applyToOutbound, findOutbound, recordReply, type MessageSummary, type RepliedTo } from './replies';
import { bounceTypeSql, countBlock } from './blocks';

export type SendRow = Pick<SequenceSendsRow, 'id' | 'team_id' | 'sequence_id' | 'enrollment_id' | 'contact_id' | 'step_id' | 'message_id'>;

/** The sequence email a message answers: by VERP/Reply-To token first, then by Message-ID. */
export async function findSend(db: Executor, c: Classified): Promise<SendRow | undefined> {
  const cols = ['id', 'team_id', 'sequence_id', 'enrollment_id', 'contact_id', 'step_id', 'message_id'] as const;
  if (c.tokens.length) {
    const byToken = await db('sequence_sends')
      .whereIn('token', c.tokens)
      .where({ channel: 'email' })
      .first(...cols);
    if (byToken) return byToken;
  }
  if (c.messageIds.length)
    return db('sequence_sends')
      .whereIn('message_id', c.messageIds)
      .first(...cols);
  return undefined;
}

/** Record what came back on the send it answers, and act (exit, undeliverable, unsubscribe). */
export async function applyToSend(trx: Executor, enqueue: Enqueue, { send, cls }: { send: SendRow; cls: MailClass }): Promise<string> {
  const one = { teamId: send.team_id, enrollmentIds: [send.enrollment_id] };
  const sendRow = trx('sequence_sends').where({ id: send.id });
  switch (cls.kind) {
    case 'bounce': {
      await sendRow.update({
        bounced_at: trx.raw('COALESCE(bounced_at, now())'),
        // A hard bounce wins over an earlier soft one (a delay notice, then the final failure).
        bounce_type: bounceTypeSql(trx, cls.type),
        bounce_status: cls.status,
        bounce_detail: cls.diagnostic?.slice(0, 500) ?? null,
      });
      // A block refused us, not the address: counted for the team, the address and the enrollment stay.
      if (cls.type === 'block') {
        await countBlock(trx, { teamId: send.team_id, reason: cls.block ?? 'policy' });
        return 'block_recorded';
      }
      if (cls.type !== 'hard') return 'soft_bounce_recorded';
      await trx('contacts')
        .where({ id: send.contact_id })
        .update({
          email_undeliverable_at: trx.raw('COALESCE(email_undeliverable_at, now())'),
          email_undeliverable_reason: (cls.diagnostic ?? cls.status ?? 'bounced').slice(0, 500),
          updated_at: trx.fn.now(),
        });
      await exitEnrollments(trx, enqueue, { ...one, reason: 'email_bounced' });
      return 'exited_email_bounced';
    }
    case 'complaint':
      await sendRow.update({ complained_at: trx.raw('COALESCE(complained_at, now())') });
      await exitEnrollments(trx, enqueue, { ...one, reason: 'email_complained' });
      // Every other active email sequence of the contact exits as `unsubscribed`.
      await unsubscribeContact(trx, enqueue, {
        teamId: send.team_id,
        contactId: send.contact_id,
        channels: ['email'],
        source: 'complaint',
      });
      return 'unsubscribed';
    case 'auto_reply':
      await sendRow.update({ auto_replied_at: trx.raw('COALESCE(auto_replied_at, now())') });
      return 'recorded';
    case 'warning':
      // A delay notice: the server is still trying. Not a bounce; the final outcome comes later.
      return 'warning_recorded';
    case 'reply': {
      await sendRow.update({ replied_at: trx.raw('COALESCE(replied_at, now())') });
      const exited = await exitEnrollments(trx, enqueue, {
        ...one,
        sequenceWhere: (q) => q.where('exit_on_reply', true),
        reason: 'replied',
      });
      return exited.length ? 'exited_replied' : 'recorded';
    }
    default:
      return 'none';
  }
}

export interface ApplyMailEventInput {
  inboundId: string;
  classified: Classified;
  message?: MessageSummary;
}

/**
 * Act on a classified inbound message, once: the stored row is marked processed in the same
 * transaction as the effects (send timestamps, undeliverable address, exits, unsubscribe, the
 * contact's timeline and the `email.replied` webhook event). A message that answers no sequence
 * step may answer other tracked mail (a booking email, services/mail/outbound.ts).
 */
export async function applyMailEvent(
  deps: Pick<ServiceDeps, 'db' | 'outbox'>,
  input: ApplyMailEventInput,
): Promise<{ kind: string; action: string }> {
  const { db, outbox } = deps;
  const { inboundId, classified: c, message = { from: '', subject: '', text: '', messageId: null } } = input;
  return transactionWithOutbox(db, outbox, async (trx, enqueue) => {
    const send = await findSend(trx, c);
    const out = send ? undefined : await findOutbound(trx, c);
    const claimed = await trx('inbound_emails')
      .where({ id: inboundId })
      .whereNull('processed_at')
      .update(
        {
          kind: c.class.kind,
          detail: JSON.stringify(c),
          send_id: send?.id ?? null,
          outbound_email_id: out?.id ?? null,
          processed_at: trx.fn.now(),
        },
        ['id'],
      );
    if (claimed.length === 0) return { kind: c.class.kind, action: 'already_processed' };
    const reply = c.class.kind === 'reply';
    if (send) {
      const action = await applyToSend(trx, enqueue, { send, cls: c.class });
      if (reply) {
        const repliedTo: RepliedTo = {
          type: 'sequence',
          messageId: send.message_id,
          sequenceId: send.sequence_id,
          enrollmentId: send.enrollment_id,
          stepId: send.step_id,
        };
        await recordReply(trx, enqueue, { teamId: send.team_id, contactId: send.contact_id, inboundId, repliedTo, message });
      }
      return { kind: c.class.kind, action };
    }
    if (out) {
      const unsubscribe = (teamId: string, contactId: string) =>
        unsubscribeContact(trx, enqueue, { teamId, contactId, channels: ['email'], source: 'complaint' });
      const action = await applyToOutbound(trx, { out, cls: c.class, unsubscribe });
      if (reply) {
        const repliedTo: RepliedTo = {
          type: out.meeting_id ? 'meeting' : 'other',
          messageId: out.message_id,
          meetingId: out.meeting_id,
          emailKind: out.kind,
        };
        await recordReply(trx, enqueue, { teamId: out.team_id, contactId: out.contact_id, inboundId, repliedTo, message });
      }
      return { kind: c.class.kind, action };
    }
    return { kind: c.class.kind, action: 'unmatched' };
  });
}
