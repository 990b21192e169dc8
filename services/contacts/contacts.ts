import { jsonb } from '../../db/jsonb';
import type { ContactsRow } from '../../db/tables';
import type { Executor } from '../../db/knex';
import { transactionWithOutbox } from '../../temporal/outbox';
import type { ServiceDeps } from '../deps';
import { conflict, notFound } from '../../core/errors';
import { listEnvelope, type Page } from '../pagination';
import { listContactMeetingIds } from './meetings';
import { onContactDeleted } from '../sequences/hooks';
import { listContactEnrollments } from '../sequences/contact-enrollments';
import { listContactTimeline } from './timeline';
import { suppressAddress, suppressionKey, type SuppressionReason } from '../mail/suppression';
import { eraseContactMeetingNotes } from '../meeting-followup/transcripts';

export interface Tag {
  id: string;
  name: string;
}

const COLUMNS = [
  'id',
  'team_id',
  'email',
  'phone',
  'first_name',
  'last_name',
  'timezone',
  'custom_fields',
  'unsubscribed_email',
  'unsubscribed_sms',
  'created_at',
  'updated_at',
] as const;

/** A contact as the API shows it. */
export type ContactRow = Pick<ContactsRow, (typeof COLUMNS)[number]>;

export function presentContact(c: ContactRow, tags: Tag[]) {
  return {
    id: c.id,
    email: c.email,
    phone: c.phone,
    first_name: c.first_name,
    last_name: c.last_name,
    timezone: c.timezone,
    custom_fields: c.custom_fields,
    tags,
    unsubscribed: { email: c.unsubscribed_email, sms: c.unsubscribed_sms },
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

/** Tags of each contact, by contact id. */
async function tagsOf(db: Executor, ids: string[]): Promise<Map<string, Tag[]>> {
  const map = new Map<string, Tag[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return map;
  const rows = await db('contact_tag_links as l')
    .join('contact_tags as t', 't.id', 'l.tag_id')
    .whereIn('l.contact_id', ids)
    .orderBy('t.name')
    .select('l.contact_id', 't.id', 't.name');
  for (const r of rows) map.get(r.contact_id)?.push({ id: r.id, name: r.name });
  return map;
}

export interface ContactFilters {
  form_id?: string;
  email?: string;
  tag_id?: string;
  q?: string;
}

export interface ListContactsInput {
  teamId: string;
  page: Page;
  filters: ContactFilters;
}

export async function listContacts(deps: Pick<ServiceDeps, 'db'>, { teamId, page, filters: f }: ListContactsInput) {
  const { db } = deps;
  const base = db('contacts as c').where('c.team_id', teamId).whereNull('c.deleted_at');
  if (f.email) base.where('c.email', f.email);
  if (f.form_id) base.whereExists(db('submissions as s').whereRaw('s.contact_id = c.id').where('s.form_id', f.form_id).select(db.raw('1')));
  if (f.tag_id)
    base.whereExists(db('contact_tag_links as l').whereRaw('l.contact_id = c.id').where('l.tag_id', f.tag_id).select(db.raw('1')));
  if (f.q) {
    const like = `%${f.q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    base.where((w) =>
      w.whereILike('c.email', like).orWhereILike('c.first_name', like).orWhereILike('c.last_name', like).orWhereILike('c.phone', like),
    );
  }
  const [rows, countRow] = await Promise.all([
    base
      .clone()
      .select(COLUMNS.map((c) => `c.${c}`))
      .orderBy([
        { column: 'c.created_at', order: 'desc' },
        { column: 'c.id', order: 'desc' },
      ])
      .limit(page.perPage)
      .offset(page.offset),
    base.clone().count<{ count: number }[]>({ count: '*' }).first(),
  ]);
  const tags = await tagsOf(
    db,
    rows.map((r: ContactRow) => r.id),
  );
  return listEnvelope(
    rows.map((r: ContactRow) => presentContact(r, tags.get(r.id) ?? [])),
    Number(countRow?.count ?? 0),
    page,
  );
}

export interface ContactRowInput {
  teamId: string;
  id: string;
  lock?: boolean;
}

export async function getContactRow(trx: Executor, { teamId, id, lock = false }: ContactRowInput): Promise<ContactRow> {
  const q = trx('contacts')
    .where({ id, team_id: teamId })
    .whereNull('deleted_at')
    .first(...COLUMNS);
  if (lock) q.forUpdate();
  const row = await q;
  if (!row) throw notFound('Contact');
  return row;
}

/** The contact as the list shows it (with tags). */
export async function contactWithTags(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }) {
  const { db } = deps;
  const row = await getContactRow(db, { teamId, id });
  return presentContact(row, (await tagsOf(db, [id])).get(id) ?? []);
}

/** The single-contact response: also enrollments, meeting ids, submission ids and the timeline. */
export async function contactDetail(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }) {
  const { db } = deps;
  const contact = await contactWithTags(deps, { teamId, id });
  const [enrollments, meetings, submissions, timeline] = await Promise.all([
    listContactEnrollments({ db }, { teamId, contactId: id }),
    listContactMeetingIds({ db }, { teamId, contactId: id }),
    db('submissions')
      .where({ team_id: teamId, contact_id: id })
      .orderBy([
        { column: 'submitted_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .pluck('id'),
    listContactTimeline(deps, { teamId, contactId: id }),
  ]);
  return { ...contact, enrollments, meetings, submissions, timeline };
}

export interface ContactPatch {
  email?: string | null;
  phone?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  timezone?: string | null;
  custom_fields?: Record<string, unknown>;
}

export interface UpdateContactInput {
  teamId: string;
  id: string;
  changes: ContactPatch;
}

/** Partial update; `custom_fields` merges key by key and a key set to null is removed. */
export async function updateContact(deps: Pick<ServiceDeps, 'db' | 'config'>, { teamId, id, changes: patch }: UpdateContactInput) {
  const { db } = deps;
  await db.transaction(async (trx) => {
    const current = await getContactRow(trx, { teamId, id, lock: true });
    // A new address frees the old one: keep its suppression, as an erase does.
    if (patch.email !== undefined && current.email && patch.email?.toLowerCase() !== current.email.toLowerCase()) {
      await keepSuppression(trx, { teamId, key: suppressionKey(deps.config), contactId: id, source: 'email_changed' });
    }
    const set: Record<string, unknown> = { updated_at: trx.fn.now() };
    for (const k of ['email', 'phone', 'first_name', 'last_name', 'timezone'] as const) if (patch[k] !== undefined) set[k] = patch[k];
    if (patch.custom_fields) {
      const next: Record<string, unknown> = { ...current.custom_fields };
      for (const [k, v] of Object.entries(patch.custom_fields)) {
        if (v === null) delete next[k];
        else next[k] = v;
      }
      set.custom_fields = JSON.stringify(next);
    }
    try {
      await trx('contacts').where({ id }).update(set);
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw conflict('Another contact of the team has this email');
      throw err;
    }
  });
  return contactDetail(deps, { teamId, id });
}

/**
 * An erase (or a change of address) keeps only the keyed hash of an address the person asked not
 * to be mailed at (or that is dead): docs/sequences.md "Suppression list" says why that is allowed.
 */
async function keepSuppression(
  trx: Executor,
  { teamId, key, contactId, source }: { teamId: string; key: Buffer; contactId: string; source: 'contact_erased' | 'email_changed' },
): Promise<void> {
  const c = await trx('contacts').where({ id: contactId }).first('email', 'unsubscribed_email', 'email_undeliverable_at');
  if (!c?.email) return;
  const reasons: SuppressionReason[] = [];
  if (c.unsubscribed_email) reasons.push('unsubscribed');
  if (c.email_undeliverable_at) reasons.push('email_undeliverable');
  await suppressAddress(trx, { teamId, key, email: c.email, reasons, source });
}

/**
 * Erase the contact's personal data (the row stays as a tombstone so that meetings and
 * enrollments keep their reference), drop its tags, blank the answers of its submissions, delete
 * its meetings' transcripts and AI notes, and stop its enrollments (sequences hook). It is then gone from the API.
 */
export async function deleteContact(
  deps: Pick<ServiceDeps, 'db' | 'outbox' | 'config'>,
  { teamId, id }: { teamId: string; id: string },
): Promise<void> {
  const key = suppressionKey(deps.config);
  await transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    await getContactRow(trx, { teamId, id, lock: true });
    await keepSuppression(trx, { teamId, key, contactId: id, source: 'contact_erased' });
    await trx('contacts').where({ id }).update({
      email: null,
      phone: null,
      first_name: null,
      last_name: null,
      timezone: null,
      custom_fields: '{}',
      deleted_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    });
    await trx('contact_tag_links').where({ contact_id: id }).delete();
    await trx('submissions')
      .where({ team_id: teamId, contact_id: id })
      .update({
        fields: jsonb({}),
        metadata: trx.raw(`metadata || '{"user_agent":null,"referrer":null,"visitor_id":null,"session_id":null}'::jsonb`),
        updated_at: trx.fn.now(),
      });
    await eraseContactMeetingNotes(trx, { teamId, contactId: id });
    await onContactDeleted(trx, enqueue, { teamId, contactId: id });
  });
}
