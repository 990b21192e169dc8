import type { Executor } from '../../db/knex';
import { slugify as slugifyText } from '../../domain/slug';

export const slugify = (title: string): string => slugifyText(title, 'form');

export interface FreeSlugInput {
  teamId: string;
  title: string;
  exceptFormId?: string;
}

/**
 * A slug from the title that is free in the team and not taken by another team's published form
 * (public slugs are global): `base`, `base-2`, `base-3`, …
 */
export async function freeSlug(trx: Executor, { teamId, title, exceptFormId }: FreeSlugInput): Promise<string> {
  const base = slugify(title);
  const pattern = `^${base.replace(/[-]/g, '\\-')}(-[0-9]+)?$`;
  const q = trx('forms')
    .where((w) => w.where('team_id', teamId).orWhere('status', 'published'))
    .andWhereRaw('slug ~ ?', [pattern])
    .pluck('slug');
  if (exceptFormId) q.whereNot('id', exceptFormId);
  const taken = new Set<string>(await q);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
