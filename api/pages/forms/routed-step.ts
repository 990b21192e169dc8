/**
 * The booking step of a routed submission (docs/forms.md "Routing"): the booking page of the
 * routed event type, opened in the same frame, with the signed prefill token. An embedded form
 * keeps its embed parameters, so the booking page is embedded the same way.
 */
export function routedBookingUrl(bookingUrl: string, query: Record<string, string>, embed: boolean): string {
  if (!embed) return bookingUrl;
  const extra = new URLSearchParams({ embed: '1' });
  if (query.embed_host) extra.set('embed_host', query.embed_host);
  return `${bookingUrl}&${extra.toString()}`;
}

/**
 * The form script's part for a routed answer: a URL opens in place, an event type's booking step
 * opens in the same frame (keeping `embed` and `embed_host`), a message replaces the thank-you text.
 * Returns true when it took over. Plain ES5, like the form script.
 */
export const ROUTED_SCRIPT = String.raw`
  function routed(r, embed) {
    if (!r) return false;
    if (r.target === 'message' && r.message) { document.getElementById('form-success-text').textContent = r.message; return false; }
    var to = r.target === 'url' ? r.url : r.booking_url;
    if (!to) return false;
    if (r.target === 'event_type' && embed) {
      var q = new URLSearchParams(location.search), extra = new URLSearchParams({ embed: '1' });
      if (q.get('embed_host')) extra.set('embed_host', q.get('embed_host'));
      to += '&' + extra.toString();
    }
    if (embed) embed.post('form:routed', { target: r.target, url: to });
    window.location.assign(to);
    return true;
  }
`;
