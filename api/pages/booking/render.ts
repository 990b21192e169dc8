import { embedBridge } from '../embed/bridge';
import { escapeHtml, page } from '../../../core/html';
import { BOOKING_SCRIPT } from './script';
import type { RoutedPageView } from '../../../services/scheduling/routed-page';
import { routedNoJsForm } from './routed';

export interface BookingPageView {
  title: string;
  description: string;
  confirmationMessage: string;
  eventTypes: Array<{ id: string; title: string; description: string; duration_minutes: number; max_booking_days: number }>;
  /** Framed by embed.js or an iframe: no page margins, and the embed bridge (height, events). */
  embed?: boolean;
  /** Opened from a routed submission: its event type only, its hosts' times, its name and email. */
  routed?: { slug: string; view: RoutedPageView } | null;
}

const EMBED_STYLE = 'body{margin:0;padding:.5rem 1rem;max-width:none}';

const STYLE = `*{box-sizing:border-box}body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#111}
button{font:inherit;margin:.25rem;padding:.5rem .75rem;border:1px solid #555;border-radius:.375rem;background:#fff;cursor:pointer}
button[aria-pressed=true]{background:#1d4ed8;color:#fff}label{display:block;margin:.5rem 0}input,textarea{font:inherit;width:100%;padding:.4rem}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}`;

/** The public booking widget at /book/<slug>: server-rendered, every value escaped. */
export function renderBookingPage(v: BookingPageView, nonce: string): string {
  const r = v.routed?.view;
  const types = v.eventTypes
    .filter((et) => !r || et.id === r.eventTypeId)
    .map(
      (
        e,
      ) => `<li><button type="button" class="event-type" aria-pressed="false" data-id="${escapeHtml(e.id)}" data-max-days="${escapeHtml(e.max_booking_days)}">
${escapeHtml(e.title)} <span>(${escapeHtml(e.duration_minutes)} min)</span></button>${e.description ? `<p>${escapeHtml(e.description)}</p>` : ''}</li>`,
    )
    .join('');
  const routedAttrs = r ? ` data-routing-token="${escapeHtml(r.token)}" data-routed-et="${escapeHtml(r.eventTypeId)}"` : '';
  const body = `<main id="booking"${routedAttrs}><h1>${escapeHtml(v.title)}</h1>${v.description ? `<p>${escapeHtml(v.description)}</p>` : ''}
<div id="picker"><section aria-labelledby="et-h"><h2 id="et-h">Choose a meeting</h2>
${types ? `<ul>${types}</ul>` : '<p>No meetings can be booked here right now.</p>'}</section>
<p>Times are shown in <strong id="tz">your timezone</strong>.</p>
<section id="days-section" aria-labelledby="days-h" hidden><h2 id="days-h">Free days</h2><div id="days"></div></section>
<section id="slots-section" aria-labelledby="slots-heading" hidden><h2 id="slots-heading">Free times</h2><div id="slots"></div></section>
<form id="details" hidden><h2>Your details</h2><p id="chosen"></p>
<label for="name">Name</label><input id="name" name="name" required maxlength="200" autocomplete="name" value="${escapeHtml(r?.name ?? '')}">
<label for="email">Email</label><input id="email" name="email" type="email" required maxlength="254" autocomplete="email" value="${escapeHtml(r?.email ?? '')}">
<label for="notes">Notes (optional)</label><textarea id="notes" name="notes" maxlength="5000"></textarea>
<button type="submit">Book</button></form></div>
${r && v.routed ? routedNoJsForm(v.routed.slug, r) : ''}
<section id="confirmation" tabindex="-1" hidden><h2>Booked</h2><p>${escapeHtml(v.confirmationMessage)}</p>
<p id="confirmation-time"></p><p id="confirmation-status"></p></section>
<p id="status" role="status" aria-live="polite"></p></main>
<script nonce="${escapeHtml(nonce)}">${v.embed ? embedBridge('booking') : ''}${BOOKING_SCRIPT}</script>`;
  return page(v.title, body, { head: `<style>${STYLE}${v.embed ? EMBED_STYLE : ''}</style>` });
}

export function renderNotFound(): string {
  return page(
    'Booking page not found',
    '<main><h1>Booking page not found</h1><p>This booking page does not exist or is not published.</p></main>',
  );
}
