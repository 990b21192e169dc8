const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** A minimal, accessible page shell. `body` must already be escaped HTML. */
export function page(title: string, body: string, opts: { head?: string; lang?: string } = {}): string {
  return `<!doctype html><html lang="${escapeHtml(opts.lang ?? 'en')}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>${opts.head ?? ''}</head>
<body>${body}</body></html>`;
}
