import type { Executor } from '../../db/knex';
import type { BlockReason } from '../../domain/mail-block';
import { countBlock } from '../mail/blocks';

/**
 * The Message-ID of a sequence email: derived from the enrollment and the step, so every attempt
 * (a retry after a 4xx, a replay) carries the same one, and a reply's In-Reply-To finds it.
 */
export function sequenceMessageId(enrollmentId: string, stepId: string, domain: string): string {
  return `<seq.${enrollmentId}.${stepId}@${domain}>`;
}

/** The SMTP reply code of a nodemailer error (RCPT or DATA rejection), or null for other errors. */
export function smtpReplyCode(err: unknown): number | null {
  const c = (err as { responseCode?: unknown }).responseCode;
  return typeof c === 'number' && c >= 400 && c < 600 ? c : null;
}

/** The enhanced status code (RFC 3463) in an SMTP reply, e.g. `5.1.1`, else the reply code. */
function statusOf(code: number, detail: string): string {
  return /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(detail)?.[1] ?? String(code);
}

export interface SyncBounce {
  teamId: string;
  sendId: string;
  contactId: string;
  enrollmentId: string;
  type: 'hard' | 'soft' | 'block';
  /** A block's reason (domain/mail-block.ts). */
  block?: BlockReason;
  code: number;
  detail: string;
  messageId: string;
}

/**
 * A rejection by the receiving SMTP server while we were sending. Hard (5xx): the message is
 * bounced, the address marked undeliverable and the enrollment exits `email_bounced`, in one
 * transaction. A block (a 5xx for our reputation, authentication, content or a sender policy):
 * the message is bounced and counted for the team; the address and the sequence are left as
 * they are. Soft (4xx after every attempt): the message is bounced; the sequence goes on.
 */
export async function recordSyncBounce(db: Executor, b: SyncBounce): Promise<void> {
  const detail = b.detail.slice(0, 500);
  await db.transaction(async (trx) => {
    await trx('sequence_sends')
      .where({ id: b.sendId })
      .update({
        status: 'bounced',
        message_id: b.messageId,
        bounced_at: trx.fn.now(),
        bounce_type: b.type,
        bounce_status: statusOf(b.code, detail),
        bounce_detail: detail,
        error: detail,
      });
    if (b.type === 'block') await countBlock(trx, { teamId: b.teamId, reason: b.block ?? 'policy' });
    if (b.type !== 'hard') return;
    await trx('contacts')
      .where({ id: b.contactId })
      .update({ email_undeliverable_at: trx.fn.now(), email_undeliverable_reason: detail, updated_at: trx.fn.now() });
    await trx('sequence_enrollments')
      .where({ id: b.enrollmentId, status: 'active' })
      .update({ status: 'exited', exit_reason: 'email_bounced', ended_at: trx.fn.now(), updated_at: trx.fn.now() });
  });
}
