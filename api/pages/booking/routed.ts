import { escapeHtml as e, page } from '../../../core/html';
import type { RoutedPageView } from '../../../services/scheduling/routed-page';

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * The booking step of a routed submission without JavaScript (docs/forms.md "Routing"): the routed
 * hosts' free times as a list to pick from, the name and email from the answers, posted as a form
 * to `/book/<slug>/routed`. The widget's script removes it and books through the API instead.
 */
export function routedNoJsForm(slug: string, v: RoutedPageView): string {
  const slots = v.slots
    .map(
      (s, i) =>
        `<div><input type="radio" name="slot" id="rs-${i}" value="${e(`${s.start}/${s.end}`)}"${i === 0 ? ' required' : ''}><label for="rs-${i}" style="display:inline">${e(when(s.start))}</label></div>`,
    )
    .join('');
  return `<form id="routed-nojs" method="post" action="/book/${e(encodeURIComponent(slug))}/routed">
<h2>Choose a time</h2>
<input type="hidden" name="prefill" value="${e(v.token)}"><input type="hidden" name="event_type_id" value="${e(v.eventTypeId)}">
<fieldset><legend>Free times (UTC)</legend>${slots || '<p>No free times in the next days.</p>'}</fieldset>
<label for="rn-name">Your name</label><input id="rn-name" name="name" required maxlength="200" value="${e(v.name ?? '')}">
<label for="rn-email">Your email</label><input id="rn-email" name="email" type="email" required maxlength="254" value="${e(v.email ?? '')}">
<button type="submit">Book this time</button></form>`;
}

/** The answer to the no-JavaScript booking: booked, or why not with a way back. */
export function renderRoutedResult(v: { ok: boolean; title: string; message: string; back?: string }): string {
  const body = v.ok
    ? `<main id="booking"><section id="confirmation"><h1>Booked</h1><p>${e(v.message)}</p></section></main>`
    : `<main id="booking"><h1>${e(v.title)}</h1><p role="alert">${e(v.message)}</p>${v.back ? `<p><a href="${e(v.back)}">Choose another time</a></p>` : ''}</main>`;
  return page(v.ok ? 'Booked' : v.title, body);
}
