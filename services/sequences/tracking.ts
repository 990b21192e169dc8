import type { SequenceSendsRow } from '../../db/tables';
import type { Db, Executor } from '../../db/knex';
import { classifyClick, classifyOpen, type Fetch } from '../../domain/engagement';
import { transactionWithOutbox } from '../../temporal/outbox';
import { unsubscribeContact } from '../sequence-exits/unsubscribe';
import type { ServiceDeps } from '../deps';

type SendRow = Pick<SequenceSendsRow, 'id' | 'team_id' | 'enrollment_id' | 'contact_id' | 'channel' | 'links'>;

const byToken = (db: Db, token: string): Promise<SendRow | undefined> => db('sequence_sends').where({ token }).first();

/** What the tracking route saw of the request (domain/engagement.ts judges it). */
export interface Seen {
  /** null: not known (a provider event that does not carry it). */
  userAgent: string | null;
  ip: string | null;
  method?: string;
  at?: Date;
}

/** The send a token names, with what the engagement heuristics need. */
async function trackedSend(db: Executor, token: string) {
  const row: (SendRow & { accepted_at: Date | null; delivered_at: Date | null }) | undefined = await db('sequence_sends')
    .where({ token })
    .first('id', 'team_id', 'enrollment_id', 'contact_id', 'channel', 'links', 'accepted_at', 'delivered_at');
  return row;
}

const fetchOf = (send: { accepted_at: Date | null; delivered_at: Date | null }, seen: Seen): Fetch => ({
  userAgent: seen.userAgent,
  ip: seen.ip,
  method: seen.method,
  at: seen.at ?? new Date(),
  deliveredAt: send.delivered_at ?? send.accepted_at,
});

/** A send as the engagement heuristics see it. */
export interface TrackedSendTiming {
  id: string;
  accepted_at: Date | null;
  delivered_at: Date | null;
}

/**
 * Record an open of a send (first one kept): a person's in `opened_at`, a prefetching proxy's or a
 * scanner's in `machine_opened_at` (docs/sequences.md "Machine opens and scanner clicks").
 */
export async function recordOpenOf(db: Executor, { send, seen }: { send: TrackedSendTiming; seen: Seen }): Promise<void> {
  const column = classifyOpen(fetchOf(send, seen)).machine ? 'machine_opened_at' : 'opened_at';
  await db('sequence_sends')
    .where({ id: send.id })
    .update({ [column]: db.raw(`COALESCE(${column}, ?)`, [seen.at ?? new Date()]) });
}

/** Record a click (first one kept): a person's sets `clicked_at` (and `opened_at`), a scanner's `scanner_clicked_at`. */
export async function recordClickOf(db: Executor, { send, seen }: { send: TrackedSendTiming; seen: Seen }): Promise<void> {
  const at = seen.at ?? new Date();
  const update = classifyClick(fetchOf(send, seen)).machine
    ? { scanner_clicked_at: db.raw('COALESCE(scanner_clicked_at, ?)', [at]) }
    : { clicked_at: db.raw('COALESCE(clicked_at, ?)', [at]), opened_at: db.raw('COALESCE(opened_at, ?)', [at]) };
  await db('sequence_sends').where({ id: send.id }).update(update);
}

/** Open pixel. */
export async function recordOpen(deps: Pick<ServiceDeps, 'db'>, { token, seen }: { token: string; seen: Seen }): Promise<void> {
  const { db } = deps;
  const send = await trackedSend(db, token);
  if (send) await recordOpenOf(db, { send, seen });
}

export interface RecordClickInput {
  token: string;
  index: number;
  seen: Seen;
}

/** Click redirect: the stored link number `index` of that message, or null. */
export async function recordClick(deps: Pick<ServiceDeps, 'db'>, { token, index, seen }: RecordClickInput): Promise<string | null> {
  const { db } = deps;
  const send = await trackedSend(db, token);
  const url = send?.links[index];
  if (!send || !url) return null;
  await recordClickOf(db, { send, seen });
  return url;
}

/** What the unsubscribe page shows: the address, partly masked. */
export async function unsubscribeTarget(
  deps: Pick<ServiceDeps, 'db'>,
  { token }: { token: string },
): Promise<{ maskedEmail: string; unsubscribed: boolean } | null> {
  const { db } = deps;
  const send = await byToken(db, token);
  if (!send) return null;
  const c = await db('contacts').where({ id: send.contact_id }).first('email', 'unsubscribed_email');
  if (!c) return null;
  const email = String(c.email ?? '');
  const [user, domain] = email.split('@');
  return { maskedEmail: domain ? `${user.slice(0, 2)}***@${domain}` : '***', unsubscribed: c.unsubscribed_email };
}

/** One-click unsubscribe (RFC 8058) from the email channel. Returns false for an unknown token. */
export async function unsubscribeByToken(deps: Pick<ServiceDeps, 'db' | 'outbox'>, { token }: { token: string }): Promise<boolean> {
  const { db, outbox } = deps;
  const send = await byToken(db, token);
  if (!send) return false;
  await transactionWithOutbox(db, outbox, async (trx, enqueue) => {
    await trx('sequence_sends')
      .where({ id: send.id })
      .update({ unsubscribed_at: trx.raw('COALESCE(unsubscribed_at, now())') });
    await unsubscribeContact(trx, enqueue, { teamId: send.team_id, contactId: send.contact_id, channels: ['email'], source: 'one_click' });
  });
  return true;
}

export interface RecordSmsStatusInput {
  messageSid: string;
  status: string;
  errorCode?: string;
}

/**
 * Twilio status callback: `delivered` sets delivered_at; `failed` / `undelivered` set failed_at and
 * keep Twilio's error code (e.g. 30003 unreachable, 30007 carrier filtering) in `error`.
 */
export async function recordSmsStatus(
  deps: Pick<ServiceDeps, 'db'>,
  { messageSid, status, errorCode }: RecordSmsStatusInput,
): Promise<void> {
  const { db } = deps;
  const send = db('sequence_sends').where({ provider_id: messageSid, channel: 'sms' });
  if (status === 'delivered') {
    await send.update({ delivered_at: db.raw('COALESCE(delivered_at, now())') });
  } else if (status === 'failed' || status === 'undelivered') {
    await send.update({
      failed_at: db.raw('COALESCE(failed_at, now())'),
      error: `Twilio: ${status}${errorCode ? ` (error ${errorCode.slice(0, 20)})` : ''}`,
    });
  }
}

/** Twilio's standard opt-out and opt-in keywords (also sent as `OptOutType` with Advanced Opt-Out). */
const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE']);
const START_WORDS = new Set(['START', 'YES', 'UNSTOP']);

export function isStopMessage(body: string, optOutType?: string): boolean {
  return optOutType?.toUpperCase() === 'STOP' || STOP_WORDS.has(body.trim().toUpperCase());
}

export function isStartMessage(body: string, optOutType?: string): boolean {
  return optOutType?.toUpperCase() === 'START' || START_WORDS.has(body.trim().toUpperCase());
}

/** The contacts with the sender's number in the teams whose sequences send from the number texted. */
function textingContacts(db: Db, from: string, to: string): Promise<Array<{ id: string; team_id: string }>> {
  return db('contacts')
    .where('phone', from)
    .whereNull('deleted_at')
    .whereIn('team_id', db('sequences').where('send_from_number', to).distinct('team_id'))
    .select('id', 'team_id');
}

/**
 * Inbound SMS of STOP: unsubscribes from SMS every contact with the sender's number in the teams
 * whose sequences send from the number the message was sent to. Returns how many contacts.
 */
export async function smsStop(deps: Pick<ServiceDeps, 'db' | 'outbox'>, { from, to }: { from: string; to: string }): Promise<number> {
  const { db, outbox } = deps;
  const contacts = await textingContacts(db, from, to);
  for (const c of contacts) {
    await transactionWithOutbox(db, outbox, (trx, enqueue) =>
      unsubscribeContact(trx, enqueue, { teamId: c.team_id, contactId: c.id, channels: ['sms'], source: 'sms_stop' }),
    );
  }
  return contacts.length;
}

/**
 * Inbound SMS of START (or YES, UNSTOP): the contact undoes its own STOP, as Twilio does. Only an
 * SMS unsubscribe whose source is `sms_stop` is removed; one made through the API or the dashboard stays.
 */
export async function smsStart(deps: Pick<ServiceDeps, 'db'>, { from, to }: { from: string; to: string }): Promise<number> {
  const { db } = deps;
  let n = 0;
  for (const c of await textingContacts(db, from, to)) {
    await db.transaction(async (trx) => {
      const removed = await trx('sequence_unsubscribes')
        .where({ team_id: c.team_id, contact_id: c.id, channel: 'sms', source: 'sms_stop' })
        .delete();
      if (removed) {
        n++;
        await trx('contacts').where({ id: c.id }).update({ unsubscribed_sms: false, updated_at: trx.fn.now() });
      }
    });
  }
  return n;
}
