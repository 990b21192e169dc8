/**
 * Step templates: `{{first_name}}`-style placeholders, checked when a sequence is saved and
 * rendered with contact fields when a step is sent. `{{custom.<key>}}` reads a custom field.
 */
export const PLACEHOLDERS = ['first_name', 'last_name', 'full_name', 'email', 'phone', 'unsubscribe_url'] as const;

const TAG = /\{\{\s*([^{}]*?)\s*\}\}/g;
const CUSTOM = /^custom\.[A-Za-z0-9_-]{1,100}$/;

export interface TemplateContact {
  email?: string | null;
  phone?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  custom_fields?: Record<string, unknown> | null;
}

/** Placeholders in `template` that are not known; an unclosed `{{` counts as unknown too. */
export function unknownPlaceholders(template: string): string[] {
  const bad: string[] = [];
  for (const m of template.matchAll(TAG)) {
    const name = m[1];
    if (!(PLACEHOLDERS as readonly string[]).includes(name) && !CUSTOM.test(name)) bad.push(name);
  }
  const stripped = template.replace(TAG, '');
  if (stripped.includes('{{') || stripped.includes('}}')) bad.push('unbalanced braces');
  return bad;
}

function value(name: string, c: TemplateContact, extra: Record<string, string>): string {
  if (name in extra) return extra[name];
  if (name.startsWith('custom.')) {
    const v = c.custom_fields?.[name.slice(7)];
    return v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  if (name === 'full_name') return [c.first_name, c.last_name].filter(Boolean).join(' ');
  const v = (c as Record<string, unknown>)[name];
  return v === undefined || v === null ? '' : String(v);
}

/** Replace placeholders; `escape` is applied to every substituted value (HTML bodies). */
export function renderTemplate(
  template: string,
  contact: TemplateContact,
  opts: { escape?: (s: string) => string; extra?: Record<string, string> } = {},
): string {
  const esc = opts.escape ?? ((s: string) => s);
  return template.replace(TAG, (_m, name: string) => esc(value(name, contact, opts.extra ?? {})));
}
