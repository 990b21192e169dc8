import { parseMailFacts } from '../../core/mail-facts';
import { logger } from '../../core/logger';
import { classifyMail, type Classified } from '../../domain/mail-classify';
import { applyMailEvent } from './returned';
import type { MessageSummary } from './replies';
import type { InboundEmailInput, InboundEmailResult } from '../../workflows/mail/contract';
import type { WorkerDeps } from '../deps';

/**
 * One stored inbound message (inbound_emails): parse and classify it, then act on it (a bounce, a
 * complaint, a reply). Unparseable messages are kept, marked and never retried.
 */
export async function processInboundEmail(deps: WorkerDeps, input: InboundEmailInput): Promise<InboundEmailResult> {
  const { db, config } = deps;
  const row = await db('inbound_emails').where({ id: input.inboundId }).first();
  if (!row) return { kind: 'missing', action: 'none' };
  if (row.processed_at) return { kind: row.kind ?? 'unknown', action: 'already_processed' };
  let classified: Classified;
  let message: MessageSummary;
  try {
    const facts = await parseMailFacts(row.raw as Buffer, { mailFrom: row.mail_from ?? '', recipients: row.rcpt_to });
    classified = classifyMail(facts, { bounce: config.MAIL_BOUNCE_DOMAIN, reply: config.MAIL_REPLY_DOMAIN });
    if (classified.class.kind === 'unknown') {
      // Left for a person to look at (inbound_emails.kind = 'unknown', detail holds the reason).
      logger.info({ inboundId: row.id, reason: classified.class.reason }, 'inbound email not classified');
    }
    const messageId = /<[^<>\s]+@[^<>\s]+>/.exec(facts.headers['message-id'] ?? '')?.[0] ?? null;
    message = { from: facts.from, subject: facts.subject, text: facts.text, messageId };
  } catch (err) {
    // Unparseable: kept, logged, never retried.
    logger.warn({ inboundId: row.id, err: String(err) }, 'inbound email could not be parsed');
    await db('inbound_emails')
      .where({ id: row.id })
      .update({ kind: 'unparseable', detail: JSON.stringify({ error: String(err).slice(0, 500) }), processed_at: db.fn.now() });
    return { kind: 'unparseable', action: 'none' };
  }
  return applyMailEvent(deps, { inboundId: row.id, classified, message });
}
