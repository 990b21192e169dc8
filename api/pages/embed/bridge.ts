/**
 * The script an embedded page (`/f/<slug>?embed=1`, `/book/<slug>?embed=1`) runs to talk to the
 * page that frames it: it reports its content height (ResizeObserver) so the host can size the
 * iframe without an inner scroll bar, forwards Esc (the host cannot see keys typed inside the
 * iframe), and posts `<kind>:ready`. The page scripts post their own events through
 * `window.__fssEmbed.post(type, data)`.
 *
 * Messages are `{fss: 1, type, ...data}`. They go to the origin the embed script named in
 * `embed_host` (checked to be a bare origin), else to the origin of document.referrer, else to
 * '*' (a plain <iframe> on a page whose referrer policy hides its origin). `managed` is true when
 * embed.js framed the page: redirects after a submission are then left to the host page.
 */
export function embedBridge(kind: 'form' | 'booking'): string {
  return String.raw`(function () {
  if (window.parent === window) return;
  var q = new URLSearchParams(location.search), host = q.get('embed_host') || '', target = '*';
  var ORIGIN = /^https?:\/\/[^\/?#\s]+$/;
  if (ORIGIN.test(host)) target = host;
  else { try { if (document.referrer) target = new URL(document.referrer).origin; } catch (e) { target = '*'; } }
  var api = window.__fssEmbed = {
    managed: ORIGIN.test(host),
    post: function (type, data) {
      var msg = { fss: 1, type: type };
      if (data) for (var k in data) msg[k] = data[k];
      try { window.parent.postMessage(msg, target); } catch (e) { /* the parent navigated away */ }
    }
  };
  var last = -1;
  function height() {
    var b = document.body, cs = getComputedStyle(b);
    return Math.ceil(b.getBoundingClientRect().height + parseFloat(cs.marginTop) + parseFloat(cs.marginBottom));
  }
  function report() {
    var h = height();
    if (h !== last) { last = h; api.post('embed:resize', { height: h }); }
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') api.post('embed:escape');
  });
  function start() {
    report();
    if (window.ResizeObserver) new ResizeObserver(report).observe(document.body);
    else window.addEventListener('resize', report);
    api.post('${kind}:ready');
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();`;
}

/** `frame-ancestors` for an embeddable page: the allow-list, `*` when there is none, `'none'` when it is empty. */
export function frameAncestors(allowed: readonly string[] | null | undefined): string {
  if (allowed == null) return '*';
  return allowed.length ? allowed.join(' ') : "'none'";
}
