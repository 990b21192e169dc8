import type { Executor } from '../../db/knex';
import { slugify } from '../../domain/slug';
import { conflict } from '../../core/errors';

export { slugify, SLUG_RE } from '../../domain/slug';

/**
 * An explicit slug that is taken gets 409 conflict; a generated one gets `-2`, `-3`, …
 * `taken(slug)` answers whether the slug is used in the relevant namespace.
 */
export async function chooseSlug(explicit: string | undefined, title: string, taken: (slug: string) => Promise<boolean>): Promise<string> {
  if (explicit !== undefined) {
    if (await taken(explicit)) throw conflict(`The slug "${explicit}" is already taken`);
    return explicit;
  }
  const base = slugify(title);
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await taken(candidate))) return candidate;
  }
  throw conflict('Could not generate a free slug; send one explicitly');
}

/** Postgres unique violation (a race on a slug) → 409 conflict. */
export async function mapUniqueViolation<T>(fn: () => Promise<T>, message: string): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw conflict(message);
    throw err;
  }
}

export type { Executor };
