import { randomBytes, randomUUID } from 'node:crypto';
import type { Config } from '../../core/config';
import type { Mailer, MailMessage } from '../../core/mailer';
import type { Executor } from '../../db/knex';
import { smtpQueueId, tokenAddress } from '../../domain/mail-address';

/** What a tracked message is about: the team, and the meeting and contact when there are. */
export interface OutboundContext {
  teamId: string;
  meetingId?: string | null;
  contactId?: string | null;
  /** Stored as `kind`; `X-Meeting-Email: <kind>` in the message's headers is read when absent. */
  kind?: string;
}

function firstAddress(to: MailMessage['to']): string {
  const one: unknown = Array.isArray(to) ? to[0] : to;
  if (typeof one === 'string') return (/<([^<>]+)>/.exec(one)?.[1] ?? one.split(',')[0]).trim().toLowerCase();
  const address = (one as { address?: unknown } | undefined)?.address;
  return typeof address === 'string' ? address.toLowerCase() : '';
}

function kindOf(message: MailMessage, ctx: OutboundContext): string {
  if (ctx.kind) return ctx.kind;
  const headers = (message.headers ?? {}) as Record<string, unknown>;
  const meeting = headers['X-Meeting-Email'];
  return typeof meeting === 'string' ? `meeting.${meeting}` : 'other';
}

/**
 * A mailer that tracks mail that is not a sequence step (booking confirmations, reminders,
 * cancellations) the way sequence mail is: each message gets its own token and Message-ID
 * (`<mail.<uuid>@MAIL_REPLY_DOMAIN>`), a VERP return path `bounce+<token>@MAIL_BOUNCE_DOMAIN` and a
 * Reply-To `reply+<token>@MAIL_REPLY_DOMAIN`, stored in `outbound_emails` before it is sent, so the
 * inbound workflow matches a reply by token, In-Reply-To or References (docs/sequences.md
 * "Replies to other mail"). The recipient's contact is the one given when the address is its, else
 * the team's contact with that address, if any.
 */
export function trackedMailer(
  deps: { db: Executor; config: Pick<Config, 'MAIL_BOUNCE_DOMAIN' | 'MAIL_REPLY_DOMAIN'>; mailer: Mailer },
  ctx: OutboundContext,
): Mailer {
  const { db, config, mailer } = deps;
  let given: { id: string; email: string | null } | null | undefined;
  const contactFor = async (recipient: string): Promise<string | null> => {
    if (ctx.contactId && given === undefined) {
      given = (await db('contacts').where({ id: ctx.contactId }).whereNull('deleted_at').first('id', 'email')) ?? null;
    }
    if (given && given.email?.toLowerCase() === recipient) return given.id;
    const other = await db('contacts')
      .where({ team_id: ctx.teamId })
      .whereRaw('lower(email) = ?', [recipient])
      .whereNull('deleted_at')
      .first('id');
    return other?.id ?? null;
  };
  return {
    async send(message) {
      const recipient = firstAddress(message.to);
      const token = randomBytes(16).toString('hex'); // lowercase: it travels in VERP addresses
      const messageId = `<mail.${randomUUID()}@${config.MAIL_REPLY_DOMAIN}>`;
      const [row] = await db('outbound_emails')
        .insert({
          team_id: ctx.teamId,
          contact_id: recipient ? await contactFor(recipient) : null,
          meeting_id: ctx.meetingId ?? null,
          kind: kindOf(message, ctx),
          recipient,
          token,
          message_id: messageId,
        })
        .returning('id');
      const info = await mailer.send({
        ...message,
        messageId,
        replyTo: message.replyTo ?? tokenAddress('reply', token, config.MAIL_REPLY_DOMAIN),
        envelope: { from: tokenAddress('bounce', token, config.MAIL_BOUNCE_DOMAIN), to: message.to },
      });
      await db('outbound_emails')
        .where({ id: row.id })
        .update({ smtp_queue_id: smtpQueueId(info.response), ...(info.accepted ? { accepted_at: db.fn.now() } : {}) });
      return info;
    },
    close: () => mailer.close(),
  };
}
