/** Slugs are lowercase words joined by `-` (DESIGN.md "Fixed details"). */
export const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A slug from free text: accents folded, at most 80 characters, `fallback` when nothing is left. */
export function slugify(text: string, fallback = 'untitled'): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return s || fallback;
}
