// Starts the API reference on /docs (served from our origin under a strict CSP: no inline script).
(function () {
  'use strict';
  var mount = document.getElementById('reference');

  // Text colours darkened to WCAG AA contrast (4.5:1) on the light theme's backgrounds.
  var accessibleColours = [
    '.light-mode, .light-mode .dark-mode-invert {',
    '  --scalar-color-1: #121212; --scalar-color-2: #3d3d3d; --scalar-color-3: #555555;',
    '  --scalar-color-accent: #0a58a8; --scalar-color-blue: #0a58a8; --scalar-color-green: #0a6636;',
    '  --scalar-color-orange: #8f4400; --scalar-color-yellow: #6e5200; --scalar-color-red: #b0221b;',
    '  --scalar-color-purple: #6339a0; --scalar-color-pink: #a3195b; --scalar-color-cyan: #00606e;',
    '}',
  ].join('\n');

  /* global Scalar */
  Scalar.createApiReference('#reference', {
    url: mount.getAttribute('data-openapi-url'),
    // Fonts from our origin only (the default pulls them from a CDN, which the CSP refuses).
    withDefaultFonts: false,
    // No AI agent (it calls a third-party service); try-it sends requests straight to this server.
    agent: { disabled: true },
    mcp: { disabled: true },
    showOperationId: true,
    showDeveloperTools: 'never',
    documentDownloadType: 'json',
    forceDarkModeState: 'light',
    hideDarkModeToggle: true,
    customCss: accessibleColours,
    authentication: { preferredSecurityScheme: 'bearer' },
    metaData: { title: 'API reference' },
  });

  // Accessible names the renderer leaves out: icon-only copy buttons get one, and a button whose
  // aria-label hides its visible text gets the text first (WCAG 2.5.3 label in name).
  function patch(root) {
    root.querySelectorAll('button').forEach(function (b) {
      var text = (b.innerText || '').trim();
      var label = b.getAttribute('aria-label');
      if (!text && !label && !b.getAttribute('aria-labelledby') && !b.title) {
        b.setAttribute('aria-label', b.className.indexOf('copy') >= 0 ? 'Copy' : 'Toggle');
      } else if (text && label && label.toLowerCase().indexOf(text.toLowerCase()) < 0) {
        b.setAttribute('aria-label', text + ': ' + label);
      }
    });
  }
  var scheduled = false;
  new MutationObserver(function () {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(function () {
      scheduled = false;
      patch(document);
    });
  }).observe(document.body, { childList: true, subtree: true });
})();
