import type { ContactTagsRow } from '../../db/tables';
import type { Db } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import { conflict, notFound } from '../../core/errors';
import { paginate, type Page } from '../pagination';
import { contactWithTags, getContactRow } from './contacts';

type TagRow = Pick<ContactTagsRow, 'id' | 'name' | 'created_at' | 'updated_at'>;

export const presentTag = (t: TagRow) => ({ id: t.id, name: t.name, created_at: t.created_at, updated_at: t.updated_at });

export async function listTags(deps: Pick<ServiceDeps, 'db'>, { teamId, page }: { teamId: string; page: Page }) {
  const { db } = deps;
  const q = db('contact_tags').where({ team_id: teamId }).select('id', 'name', 'created_at', 'updated_at');
  return paginate(
    q,
    page,
    [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ],
    presentTag,
  );
}

/** Tag names are unique per team, compared case-insensitively: a duplicate gets 409. */
export async function createTag(deps: Pick<ServiceDeps, 'db'>, { teamId, name }: { teamId: string; name: string }) {
  const { db } = deps;
  try {
    const [row] = await db('contact_tags').insert({ team_id: teamId, name }).returning(['id', 'name', 'created_at', 'updated_at']);
    return presentTag(row);
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw conflict('The team already has a tag with this name');
    throw err;
  }
}

/** Deleting a tag removes it from every contact (links cascade). */
export async function deleteTag(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }): Promise<void> {
  const { db } = deps;
  const n = await db('contact_tags').where({ id, team_id: teamId }).delete();
  if (n === 0) throw notFound('Tag');
}

async function ownTag(db: Db, teamId: string, tagId: string): Promise<void> {
  const tag = await db('contact_tags').where({ id: tagId, team_id: teamId }).first('id');
  if (!tag) throw notFound('Tag');
}

export interface ContactTagInput {
  teamId: string;
  contactId: string;
  tagId: string;
}

/** Add a tag; adding one the contact already has is not an error. Answers with the contact. */
export async function addTag(deps: Pick<ServiceDeps, 'db'>, { teamId, contactId, tagId }: ContactTagInput) {
  const { db } = deps;
  await getContactRow(db, { teamId, id: contactId });
  await ownTag(db, teamId, tagId);
  await db('contact_tag_links')
    .insert({ contact_id: contactId, tag_id: tagId, team_id: teamId })
    .onConflict(['contact_id', 'tag_id'])
    .ignore();
  return contactWithTags(deps, { teamId, id: contactId });
}

/** Remove a tag from a contact; removing one it does not have is not an error. */
export async function removeTag(deps: Pick<ServiceDeps, 'db'>, { teamId, contactId, tagId }: ContactTagInput): Promise<void> {
  const { db } = deps;
  await getContactRow(db, { teamId, id: contactId });
  await ownTag(db, teamId, tagId);
  await db('contact_tag_links').where({ contact_id: contactId, tag_id: tagId }).delete();
}
