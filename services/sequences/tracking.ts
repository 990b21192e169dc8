import type { SequenceSendsRow } from '../../db/tables';
import type { Db } from '../../db/knex';
import { transactionWithOutbox, type OutboxStarter } from '../../temporal/outbox';
import { unsubscribeContact } from './unsubscribes';

type SendRow = Pick<SequenceSendsRow, 'id' | 'team_id' | 'enrollment_id' | 'contact_id' | 'channel' | 'links'>;

const byToken = (db: Db, token: string): Promise<SendRow | undefined> => db('sequence_sends').where({ token }).first();

/** Open pixel: the first open is kept. */
export async function recordOpen(db: Db, token: string): Promise<void> {
  await db('sequence_sends').where({ token }).whereNull('opened_at').update({ opened_at: db.fn.now() });
}

/** Click redirect: the stored link number `index` of that message, or null. A click also counts as an open. */
export async function recordClick(db: Db, token: string, index: number): Promise<string | null> {
  const send = await byToken(db, token);
  const url = send?.links[index];
  if (!send || !url) return null;
  await db('sequence_sends')
    .where({ id: send.id })
    .update({ clicked_at: db.raw('COALESCE(clicked_at, now())'), opened_at: db.raw('COALESCE(opened_at, now())') });
  return url;
}

/** What the unsubscribe page shows: the address, partly masked. */
export async function unsubscribeTarget(db: Db, token: string): Promise<{ maskedEmail: string; unsubscribed: boolean } | null> {
  const send = await byToken(db, token);
  if (!send) return null;
  const c = await db('contacts').where({ id: send.contact_id }).first('email', 'unsubscribed_email');
  if (!c) return null;
  const email = String(c.email ?? '');
  const [user, domain] = email.split('@');
  return { maskedEmail: domain ? `${user.slice(0, 2)}***@${domain}` : '***', unsubscribed: c.unsubscribed_email };
}

/** One-click unsubscribe (RFC 8058) from the email channel. Returns false for an unknown token. */
export async function unsubscribeByToken(db: Db, outbox: OutboxStarter, token: string): Promise<boolean> {
  const send = await byToken(db, token);
  if (!send) return false;
  await transactionWithOutbox(db, outbox, async (trx, enqueue) => {
    await trx('sequence_sends')
      .where({ id: send.id })
      .update({ unsubscribed_at: trx.raw('COALESCE(unsubscribed_at, now())') });
    await unsubscribeContact(trx, enqueue, send.team_id, send.contact_id, ['email'], 'one_click');
  });
  return true;
}

/** Twilio status callback: delivered / failed / undelivered. */
export async function recordSmsStatus(db: Db, messageSid: string, status: string): Promise<void> {
  if (status === 'delivered') {
    await db('sequence_sends')
      .where({ provider_id: messageSid, channel: 'sms' })
      .update({ delivered_at: db.raw('COALESCE(delivered_at, now())') });
  } else if (status === 'failed' || status === 'undelivered') {
    await db('sequence_sends')
      .where({ provider_id: messageSid, channel: 'sms' })
      .update({ failed_at: db.raw('COALESCE(failed_at, now())') });
  }
}

const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);

export function isStopMessage(body: string): boolean {
  return STOP_WORDS.has(body.trim().toUpperCase());
}

/**
 * Inbound SMS of STOP: unsubscribes from SMS every contact with the sender's number in the teams
 * whose sequences send from the number the message was sent to. Returns how many contacts.
 */
export async function smsStop(db: Db, outbox: OutboxStarter, from: string, to: string): Promise<number> {
  const contacts: Array<{ id: string; team_id: string }> = await db('contacts')
    .where('phone', from)
    .whereNull('deleted_at')
    .whereIn('team_id', db('sequences').where('send_from_number', to).distinct('team_id'))
    .select('id', 'team_id');
  for (const c of contacts) {
    await transactionWithOutbox(db, outbox, (trx, enqueue) => unsubscribeContact(trx, enqueue, c.team_id, c.id, ['sms'], 'sms_stop'));
  }
  return contacts.length;
}
