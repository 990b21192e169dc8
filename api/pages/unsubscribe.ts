import { escapeHtml, page } from '../../core/html';

const STYLE = `<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
button{font-size:1rem;padding:.6rem 1.2rem;cursor:pointer}</style>`;

/** The `/u/<token>` page: one button that posts the RFC 8058 one-click body to the same address. */
export function unsubscribePage(token: string, maskedEmail: string, alreadyUnsubscribed: boolean): string {
  if (alreadyUnsubscribed) return unsubscribedPage(maskedEmail);
  return page(
    'Unsubscribe',
    `<main><h1>Unsubscribe</h1>
<p>Stop sequence emails to <strong>${escapeHtml(maskedEmail)}</strong>?</p>
<form method="post" action="/u/${escapeHtml(encodeURIComponent(token))}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form></main>`,
    { head: STYLE },
  );
}

export function unsubscribedPage(maskedEmail: string): string {
  return page(
    'Unsubscribed',
    `<main><h1 role="status">You are unsubscribed</h1><p><strong>${escapeHtml(maskedEmail)}</strong> will get no more sequence emails.</p></main>`,
    { head: STYLE },
  );
}

export function unknownLinkPage(): string {
  return page('Link not found', '<main><h1>Link not found</h1><p>This link is not valid or has expired.</p></main>', { head: STYLE });
}
