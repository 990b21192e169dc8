/**
 * One regular expression for a list of phrases, with their common leading characters factored
 * out: `user unknown|unknown user|unrouteable` becomes `u(?:ser unknown|n(?:known user|routeable))`.
 *
 * Why: a backtracking expression engine tries the alternatives of a plain alternation one after
 * another at every position of the text, so a search's time grows with the length of the list
 * (the notice word lists hold up to 50 phrases). Factored into a trie, most positions fail on
 * their first character or two, whatever the length of the list.
 *
 * The factored expression matches exactly the strings the plain one does, at the same positions,
 * so the first match starts at the same index and `test` gives the same answer. Which phrase
 * matched and how much text it covers may differ (the alternatives are reordered): use it for
 * where, or whether, a list matches. Pure.
 */

/** The pattern split at its top-level `|` (outside groups and character classes). */
function topLevel(pattern: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  out.push(pattern.slice(start));
  return out;
}

/** Characters with a meaning of their own at the start of a pattern (`^` is factored like a letter: it matches no text). */
const SPECIAL = new Set(['\\', '(', ')', '[', ']', '{', '}', '.', '?', '*', '+', '|', '$']);
const QUANTIFIER = new Set(['?', '*', '+', '{']);

/** The pattern's first character when it stands for itself and no quantifier follows it, else null. */
function head(pattern: string): string | null {
  if (pattern === '' || SPECIAL.has(pattern[0]) || QUANTIFIER.has(pattern[1])) return null;
  return pattern[0];
}

/** Where the group opening at `open` closes (the index of its `)`). */
function closing(pattern: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/**
 * A pattern that starts with a group or a small character class, spelled out:
 * `(user|mailbox) unknown` → `user unknown`, `mailbox unknown`; `[ée]chec` → `échec`, `echec`.
 * Only when no quantifier follows (the same strings either way); anything else is kept whole.
 */
function spelledOut(pattern: string): string[] {
  if (pattern.startsWith('(') && !(pattern.startsWith('(?') && !pattern.startsWith('(?:'))) {
    const end = closing(pattern, 0);
    if (end < 0 || QUANTIFIER.has(pattern[end + 1])) return [pattern];
    const inner = pattern.slice(pattern.startsWith('(?:') ? 3 : 1, end);
    return topLevel(inner).flatMap((alt) => spelledOut(alt + pattern.slice(end + 1)));
  }
  const simpleClass = /^\[([^\]\\^-]+)\]/.exec(pattern);
  if (simpleClass && !QUANTIFIER.has(pattern[simpleClass[0].length])) {
    return simpleClass[1].split('').flatMap((c) => spelledOut(c + pattern.slice(simpleClass[0].length)));
  }
  return [pattern];
}

/** The alternatives of one alternation of the patterns, common leading characters factored out. */
function factored(patterns: readonly string[]): string[] {
  const byHead = new Map<string, string[]>();
  const rest: string[] = [];
  for (const p of patterns.flatMap(topLevel).flatMap(spelledOut)) {
    const h = head(p);
    if (h === null) rest.push(p);
    else byHead.set(h, [...(byHead.get(h) ?? []), p.slice(1)]);
  }
  const grouped = [...byHead].map(([h, tails]) => {
    const inner = factored(tails);
    return inner.length === 1 ? h + inner[0] : `${h}(?:${inner.join('|')})`;
  });
  return [...grouped, ...rest];
}

/** The source of one alternation of the patterns, common leading characters factored out. */
export function alternationSource(patterns: readonly string[]): string {
  return factored(patterns).join('|');
}

/** The compiled alternation (see the top of this file for what it keeps of the plain one). */
export function alternation(patterns: readonly string[], flags = ''): RegExp {
  return new RegExp(alternationSource(patterns), flags);
}
