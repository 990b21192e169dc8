import type { OutboundEmailsRow } from '../../db/tables';
import type { Executor } from '../../db/knex';
import type { Classified, MailClass } from '../../domain/mail-classify';
import type { Enqueue } from '../../temporal/outbox';
import { recordEvent } from '../events/record';
import { bounceTypeSql, countBlock } from './blocks';

/** What the inbound workflow read of a message, for the timeline and the `email.replied` payload. */
export interface MessageSummary {
  from: string;
  subject: string;
  text: string;
  messageId: string | null;
}

/** The message a reply answers: a sequence step or other tracked mail (a booking email). */
export type RepliedTo =
  | { type: 'sequence'; messageId: string | null; sequenceId: string; enrollmentId: string; stepId: string }
  | { type: 'meeting' | 'other'; messageId: string; meetingId: string | null; emailKind: string };

const OUTBOUND_COLUMNS = ['id', 'team_id', 'contact_id', 'meeting_id', 'kind', 'message_id'] as const;

export type OutboundRow = Pick<OutboundEmailsRow, (typeof OUTBOUND_COLUMNS)[number]>;

/** Tracked mail that is not a sequence step (services/mail/outbound.ts), by token, then by Message-ID. */
export async function findOutbound(db: Executor, c: Classified): Promise<OutboundRow | undefined> {
  if (c.tokens.length) {
    const byToken = await db('outbound_emails')
      .whereIn('token', c.tokens)
      .first(...OUTBOUND_COLUMNS);
    if (byToken) return byToken;
  }
  if (c.messageIds.length)
    return db('outbound_emails')
      .whereIn('message_id', c.messageIds)
      .orderBy('created_at', 'desc')
      .first(...OUTBOUND_COLUMNS);
  return undefined;
}

const TEXT_LIMIT = 10_000;

function repliedToJson(r: RepliedTo) {
  return r.type === 'sequence'
    ? {
        type: r.type,
        message_id: r.messageId,
        sequence_id: r.sequenceId,
        enrollment_id: r.enrollmentId,
        step_id: r.stepId,
        meeting_id: null,
        email_kind: null,
      }
    : {
        type: r.type,
        message_id: r.messageId,
        sequence_id: null,
        enrollment_id: null,
        step_id: null,
        meeting_id: r.meetingId,
        email_kind: r.emailKind,
      };
}

/**
 * A person answered our mail: an `email.replied` entry on the contact's timeline (the contact the
 * mail went to, else the team's contact with the sender's address), and the `email.replied` webhook
 * event, in the caller's transaction. The same inbound message never makes two entries.
 */
export async function recordReply(
  trx: Executor,
  enqueue: Enqueue,
  r: { teamId: string; contactId: string | null; inboundId: string; repliedTo: RepliedTo; message: MessageSummary },
): Promise<void> {
  let contactId = r.contactId;
  if (!contactId && r.message.from) {
    const byAddress = await trx('contacts')
      .where({ team_id: r.teamId })
      .whereRaw('lower(email) = ?', [r.message.from.toLowerCase()])
      .whereNull('deleted_at')
      .first('id');
    contactId = byAddress?.id ?? null;
  }
  const receivedAt = new Date();
  const data = {
    id: r.inboundId,
    contact_id: contactId,
    from: r.message.from,
    subject: r.message.subject,
    text: r.message.text.slice(0, TEXT_LIMIT),
    message_id: r.message.messageId,
    received_at: receivedAt.toISOString(),
    in_reply_to: repliedToJson(r.repliedTo),
  };
  if (contactId) {
    const inserted = await trx('contact_timeline')
      .insert({
        team_id: r.teamId,
        contact_id: contactId,
        type: 'email.replied',
        occurred_at: receivedAt,
        inbound_email_id: r.inboundId,
        detail: JSON.stringify({ ...data, text: data.text.slice(0, 2000) }),
      })
      .onConflict(trx.raw('(inbound_email_id) WHERE inbound_email_id IS NOT NULL'))
      .ignore()
      .returning('id');
    if (inserted.length === 0) return; // already recorded
  }
  await recordEvent(trx, enqueue, {
    teamId: r.teamId,
    type: 'email.replied',
    payload: { event: 'email.replied', timestamp: receivedAt.toISOString(), data },
  });
}

export interface ApplyToOutboundInput {
  out: OutboundRow;
  cls: MailClass;
  unsubscribe: (teamId: string, contactId: string) => Promise<void>;
}

/**
 * What came back to tracked mail that is not a sequence step: recorded on its row. A hard bounce
 * marks the contact's address undeliverable (sequences then skip it), a block is counted for the team; a complaint unsubscribes
 * the contact from email (the caller passes the unsubscribe, which lives with sequences).
 */
export async function applyToOutbound(trx: Executor, { out, cls, unsubscribe }: ApplyToOutboundInput): Promise<string> {
  const row = trx('outbound_emails').where({ id: out.id });
  switch (cls.kind) {
    case 'bounce':
      await row.update({
        bounced_at: trx.raw('COALESCE(bounced_at, now())'),
        bounce_type: bounceTypeSql(trx, cls.type),
        bounce_status: cls.status,
      });
      if (cls.type === 'block') {
        await countBlock(trx, { teamId: out.team_id, reason: cls.block ?? 'policy' });
        return 'block_recorded';
      }
      if (cls.type !== 'hard' || !out.contact_id) return `${cls.type}_bounce_recorded`;
      await trx('contacts')
        .where({ id: out.contact_id })
        .update({
          email_undeliverable_at: trx.raw('COALESCE(email_undeliverable_at, now())'),
          email_undeliverable_reason: (cls.diagnostic ?? cls.status ?? 'bounced').slice(0, 500),
          updated_at: trx.fn.now(),
        });
      return 'undeliverable';
    case 'complaint':
      await row.update({ complained_at: trx.raw('COALESCE(complained_at, now())') });
      if (out.contact_id) await unsubscribe(out.team_id, out.contact_id);
      return out.contact_id ? 'unsubscribed' : 'recorded';
    case 'auto_reply':
      await row.update({ auto_replied_at: trx.raw('COALESCE(auto_replied_at, now())') });
      return 'recorded';
    case 'reply':
      await row.update({ replied_at: trx.raw('COALESCE(replied_at, now())') });
      return 'replied';
    default:
      return 'none';
  }
}
