import type { Context } from 'koa';
import { escapeHtml, page } from '../../core/html';

/** The page a provider's OAuth callback answers (Google, Microsoft): connected, or why not. */
export function connectPage(ctx: Context, status: number, title: string, text: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = page(title, `<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main>`);
}
