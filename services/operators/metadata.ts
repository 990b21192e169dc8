/**
 * Building blocks of the workflow summaries and details operators read in the Temporal UI
 * (docs/operators.md "What a workflow shows"). Summaries are one line; details are Markdown.
 */

/** One line, collapsed whitespace, at most `max` characters (an ellipsis marks a cut). */
export function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `3 Dec 14:00 UTC`: a time as operators read it in a summary (always UTC, no locale). */
export function utcShort(at: Date | string): string {
  const d = new Date(at);
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${hh}:${mm} UTC`;
}

/** A URL cut to its origin and the start of its path: `https://hooks.example.com/abc…`. */
export function shortUrl(url: string, max = 60): string {
  try {
    const u = new URL(url);
    const shown = `${u.origin}${u.pathname === '/' ? '' : u.pathname}`;
    return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
  } catch {
    return oneLine(url, max);
  }
}

/** The host of a URL in lower case without its port (`WebhookHost`), or null. */
export function urlHost(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** Markdown details: a title line, then `- **label**: value` for each row with a value. */
export function detailsMarkdown(title: string, rows: Array<[string, string | null | undefined]>): string {
  const lines = rows.filter(([, v]) => v !== null && v !== undefined && v !== '').map(([k, v]) => `- **${k}**: ${v}`);
  return [`**${oneLine(title, 200)}**`, '', ...lines].join('\n');
}

/** An id in code style, for details. */
export const code = (value: string) => `\`${value}\``;
