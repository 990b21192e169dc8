import { escapeHtml } from '../../../core/html';
import { renderTemplate, type TemplateContact } from '../../../domain/templates';
import { publicUrl } from './links';

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  /** Link targets, in order; `/t/c/<token>/<i>` redirects to links[i]. */
  links: string[];
}

const HREF = /href\s*=\s*"(https?:\/\/[^"]+)"/gi;

/**
 * An email step: the body is HTML authored in the dashboard; contact values are escaped,
 * http(s) links go through the click redirect, an open pixel and an unsubscribe footer are added.
 */
export function renderEmail(
  step: { subject: string | null; body: string },
  contact: TemplateContact,
  baseUrl: string,
  token: string,
): RenderedEmail {
  const site = { baseUrl };
  const unsubscribeUrl = publicUrl(site, `/u/${token}`);
  const subject = renderTemplate(step.subject ?? '', contact, { extra: { unsubscribe_url: unsubscribeUrl } }).replace(/[\r\n]+/g, ' ');
  const links: string[] = [];
  const body = renderTemplate(step.body, contact, { escape: escapeHtml, extra: { unsubscribe_url: escapeHtml(unsubscribeUrl) } }).replace(
    HREF,
    (_m, url: string) => {
      const target = url.replace(/&amp;/g, '&');
      if (target.startsWith(publicUrl(site, '/u/'))) return `href="${url}"`;
      links.push(target);
      return `href="${publicUrl(site, `/t/c/${token}/${links.length - 1}`)}"`;
    },
  );
  const html =
    `<!doctype html><html><body>${body}` +
    `<p style="font-size:12px;color:#666"><a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a></p>` +
    `<img src="${publicUrl(site, `/t/o/${token}`)}" width="1" height="1" alt="" style="display:block;border:0"></body></html>`;
  const text =
    renderTemplate(step.body, contact, { extra: { unsubscribe_url: unsubscribeUrl } })
      .replace(/<a\s[^>]*href\s*=\s*"([^"]+)"[^>]*>(.*?)<\/a>/gi, '$2 ($1)')
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/p>/gi, '\n\n')
      .replace(/<[^>]+>/g, '')
      .trim() + `\n\nUnsubscribe: ${unsubscribeUrl}\n`;
  return { subject, html, text, links };
}

export function renderSms(step: { body: string }, contact: TemplateContact): string {
  return renderTemplate(step.body, contact, { extra: { unsubscribe_url: '' } }) + '\nReply STOP to opt out.';
}
