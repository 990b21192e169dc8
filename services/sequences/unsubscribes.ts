import type { Executor } from '../../db/knex';
import { transactionWithOutbox } from '../../temporal/outbox';
import { upsertContactByEmail } from '../contact-rows/upsert';
import { ApiError, notFound } from '../../core/errors';
import { logger } from '../../core/logger';
import { paginate, type Page } from '../pagination';
import { unsubscribeContact, type Channel, type UnsubscribeSource } from '../sequence-exits/unsubscribe';
import type { UnsubscribeBody } from './schemas';
import type { ServiceDeps } from '../deps';

function present(r: { id: string; contact_id: string; email: string | null; channel: string; source: string; created_at: Date }) {
  return { id: r.id, contact_id: r.contact_id, email: r.email, channel: r.channel, source: r.source, created_at: r.created_at };
}

const listQuery = (db: Executor, teamId: string) =>
  db('sequence_unsubscribes as u')
    .join('contacts as c', 'c.id', 'u.contact_id')
    .where('u.team_id', teamId)
    .select('u.id', 'u.contact_id', 'c.email', 'u.channel', 'u.source', 'u.created_at');

export async function addUnsubscribes(
  deps: Pick<ServiceDeps, 'db' | 'outbox'>,
  { teamId, values: body }: { teamId: string; values: UnsubscribeBody },
) {
  const { db, outbox } = deps;
  const channels: Channel[] = body.channel === 'all' ? ['email', 'sms'] : [body.channel];
  return transactionWithOutbox(db, outbox, async (trx, enqueue) => {
    let ids: string[];
    if (body.emails) {
      ids = [];
      for (const email of new Set(body.emails.map((e) => e.toLowerCase())))
        ids.push((await upsertContactByEmail(trx, { teamId, contact: { email } })).id);
    } else {
      ids = [...new Set(body.contact_ids!)];
      const found: Array<{ id: string }> = await trx('contacts')
        .where('team_id', teamId)
        .whereIn('id', ids)
        .whereNull('deleted_at')
        .select('id');
      const known = new Set(found.map((r) => r.id));
      const missing = ids.map((id, i) => ({ id, i })).filter(({ id }) => !known.has(id));
      if (missing.length) {
        throw new ApiError(
          404,
          'not_found',
          'Contact not found',
          missing.slice(0, 50).map(({ i }) => ({ path: `body.contact_ids.${i}`, message: 'no such contact' })),
        );
      }
    }
    for (const id of ids) await unsubscribeContact(trx, enqueue, { teamId, contactId: id, channels, source: 'api' });
    const rows = await listQuery(trx, teamId).whereIn('u.contact_id', ids).whereIn('u.channel', channels).orderBy('u.created_at', 'desc');
    return rows.map(present);
  });
}

export interface ListUnsubscribesInput {
  teamId: string;
  page: Page;
  channel?: string;
}

export function listUnsubscribes(deps: Pick<ServiceDeps, 'db'>, { teamId, page, channel }: ListUnsubscribesInput) {
  const { db } = deps;
  const q = listQuery(db, teamId);
  if (channel) q.where('u.channel', channel);
  return paginate(
    q,
    page,
    [
      { column: 'u.created_at', order: 'desc' },
      { column: 'u.id', order: 'desc' },
    ],
    present,
  );
}

/** Sources of unsubscribes the contact made: the STOP text, the one-click link, a spam complaint, the provider's unsubscribe. */
export const CONTACT_SOURCES: readonly UnsubscribeSource[] = ['one_click', 'sms_stop', 'complaint', 'provider'];

export interface RemoveUnsubscribeInput {
  teamId: string;
  contactId: string;
  /** Remove unsubscribes the contact made too (`override_contact_unsubscribe=true`); logged in `unsubscribe_overrides`. */
  override: boolean;
  reason?: string;
  actor: { kind: string; credentialId: string; userId: string | null };
}

/**
 * Remove every unsubscribe of a contact and clear its flags. One the contact made itself (STOP,
 * one-click, complaint, provider) is removed only with the explicit override, which is recorded
 * (who, when, what, why) in the same transaction and logged; without it: 409 unsubscribed_by_contact.
 */
export async function removeUnsubscribe(deps: Pick<ServiceDeps, 'db'>, input: RemoveUnsubscribeInput): Promise<void> {
  const { db } = deps;
  const { teamId, contactId, ...opts } = input;
  await db.transaction(async (trx) => {
    const contact = await trx('contacts').where({ team_id: teamId, id: contactId }).whereNull('deleted_at').forUpdate().first('id');
    if (!contact) throw notFound('Contact');
    const rows: Array<{ channel: string; source: string; created_at: Date }> = await trx('sequence_unsubscribes')
      .where({ team_id: teamId, contact_id: contactId })
      .select('channel', 'source', 'created_at');
    const byContact = rows.filter((r) => (CONTACT_SOURCES as readonly string[]).includes(r.source));
    if (byContact.length && !opts.override) {
      const what = byContact.map((r) => `${r.channel} (${r.source})`).join(', ');
      throw new ApiError(
        409,
        'unsubscribed_by_contact',
        `The contact unsubscribed itself: ${what}. Removing it needs override_contact_unsubscribe=true, which is recorded.`,
      );
    }
    if (byContact.length) {
      await trx('unsubscribe_overrides').insert({
        team_id: teamId,
        contact_id: contactId,
        removed: JSON.stringify(byContact),
        actor_kind: opts.actor.kind,
        actor_credential_id: opts.actor.credentialId,
        actor_user_id: opts.actor.userId,
        reason: opts.reason ?? null,
      });
      logger.warn(
        { teamId, contactId, removed: byContact, actor: opts.actor, reason: opts.reason ?? null },
        'unsubscribe made by the contact removed with override_contact_unsubscribe',
      );
    }
    await trx('sequence_unsubscribes').where({ team_id: teamId, contact_id: contactId }).delete();
    await trx('contacts').where({ id: contactId }).update({ unsubscribed_email: false, unsubscribed_sms: false, updated_at: trx.fn.now() });
  });
}
