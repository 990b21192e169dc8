/*! embed.js: put forms and booking pages on any website (inline, popup, slider, sidetab).
 * No dependencies. It never reads or writes the host page's cookies or storage; styles are set
 * through the CSSOM, so it also runs under a host CSP without 'unsafe-inline' styles. */
(function () {
  'use strict';
  if (window.FssEmbed && window.FssEmbed.version) {
    window.FssEmbed.init();
    return;
  }
  var me = document.currentScript || document.querySelector('script[src*="/embed.js"]');
  if (!me || !me.src) return;
  var BASE = new URL(me.src, location.href).origin;
  var TRACK = /^(utm_[a-z0-9_]{1,40}|partner_token|attribution_id|tracking_id|visitor_id|session_id)$/;
  var MODES = { inline: 1, popup: 1, slider: 1, sidetab: 1 };
  var Z = 2147483000;
  var embeds = [];
  var seq = 0;
  var reduced = !!(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);

  function css(el, s) {
    for (var k in s) el.style[k] = s[k];
    return el;
  }
  function make(tag, attrs, styles) {
    var el = document.createElement(tag);
    for (var k in attrs) el.setAttribute(k, attrs[k]);
    return css(el, styles || {});
  }
  function attr(el, name, dflt) {
    var v = el.getAttribute('data-' + name);
    return v == null || v === '' ? dflt : v;
  }
  function size(v, dflt) {
    if (!v) return dflt;
    if (/^\d+$/.test(v)) return v + 'px';
    return /^\d+(\.\d+)?(px|%|vw|vh|rem|em)$/.test(v) ? v : dflt;
  }
  function colour(v) {
    return v && /^(#[0-9a-f]{3,8}|[a-z]{3,20}|rgba?\([\d\s.,%]+\))$/i.test(v) ? v : '#1f6feb';
  }
  function emit(el, type, detail) {
    var ev;
    try {
      ev = new CustomEvent(type, { detail: detail, bubbles: true });
    } catch (e) {
      ev = document.createEvent('CustomEvent');
      ev.initCustomEvent(type, true, false, detail);
    }
    el.dispatchEvent(ev);
  }

  /** The embedded page's URL: the host's tracking parameters, data-hidden values and the host URL as referrer. */
  function frameUrl(c) {
    var q = new URLSearchParams();
    q.set('embed', '1');
    if (/^https?:/.test(location.protocol)) q.set('embed_host', location.origin);
    new URLSearchParams(location.search).forEach(function (v, k) {
      if (TRACK.test(k) && !q.has(k)) q.set(k, v.slice(0, 500));
    });
    attr(c.el, 'hidden', '')
      .split(',')
      .forEach(function (pair) {
        var i = pair.indexOf('=');
        var k = (i > 0 ? pair.slice(0, i) : '').trim();
        if (k && !q.has(k) && !/^(embed|embed_host|referrer)$/.test(k)) q.set(k, pair.slice(i + 1).trim());
      });
    q.set('referrer', location.href.split('#')[0].slice(0, 2048));
    return BASE + (c.kind === 'form' ? '/f/' : '/book/') + encodeURIComponent(c.slug) + '?' + q.toString();
  }

  function Embed(el) {
    var c = this;
    c.el = el;
    c.kind = el.hasAttribute('data-form') ? 'form' : 'booking';
    c.slug = attr(el, c.kind, '');
    var dflt = /^(BUTTON|A)$/.test(el.tagName) ? 'popup' : 'inline';
    c.mode = MODES[attr(el, 'mode', dflt)] ? attr(el, 'mode', dflt) : dflt;
    c.side = attr(el, 'position', 'right') === 'left' ? 'left' : 'right';
    c.label = attr(el, 'label', c.kind === 'form' ? 'Form' : 'Book a meeting');
    c.id = 'fss-embed-' + ++seq;
    c.isOpen = false;
    if (c.mode === 'inline') {
      c.frame = c.iframe({
        width: '100%',
        height: size(attr(el, 'height', ''), '420px'),
        border: '0',
        display: 'block',
        overflow: 'hidden',
      });
      el.appendChild(c.frame);
      return;
    }
    var text = attr(el, 'button-text', c.kind === 'form' ? 'Open form' : 'Book a meeting');
    var bg = colour(attr(el, 'button-color', ''));
    if (c.mode === 'sidetab') {
      c.trigger = make(
        'button',
        { type: 'button' },
        {
          position: 'fixed',
          top: '50%',
          zIndex: String(Z - 1),
          transform: 'translateY(-50%)',
          writingMode: 'vertical-rl',
          padding: '14px 10px',
          border: '0',
          background: bg,
          color: '#fff',
          font: '600 15px system-ui,sans-serif',
          cursor: 'pointer',
          borderRadius: c.side === 'right' ? '8px 0 0 8px' : '0 8px 8px 0',
          boxShadow: '0 2px 10px rgba(0,0,0,.25)',
        },
      );
      c.trigger.style[c.side] = '0';
      c.trigger.textContent = text;
      document.body.appendChild(c.trigger);
    } else if (/^(BUTTON|A)$/.test(el.tagName)) {
      c.trigger = el;
    } else {
      c.trigger = make(
        'button',
        { type: 'button' },
        {
          padding: '10px 18px',
          border: '0',
          borderRadius: '6px',
          background: bg,
          color: '#fff',
          font: '600 16px system-ui,sans-serif',
          cursor: 'pointer',
        },
      );
      c.trigger.textContent = text;
      el.appendChild(c.trigger);
    }
    c.trigger.setAttribute('aria-haspopup', 'dialog');
    c.trigger.setAttribute('aria-expanded', 'false');
    c.trigger.addEventListener('click', function (e) {
      e.preventDefault();
      c.toggle();
    });
    var auto = Number(attr(el, 'auto-open', ''));
    if (auto > 0)
      setTimeout(function () {
        if (!c.opened) c.open();
      }, auto * 1000);
    if (attr(el, 'open-on-exit', '') === 'true') {
      var onExit = function (e) {
        if (e.relatedTarget || e.clientY > 0) return;
        document.removeEventListener('mouseout', onExit);
        if (!c.opened) c.open();
      };
      document.addEventListener('mouseout', onExit);
    }
  }

  Embed.prototype.iframe = function (styles) {
    return make('iframe', { src: frameUrl(this), title: this.label, allow: 'clipboard-write' }, styles);
  };

  /** The dialog (popup: centred; slider and sidetab: an edge panel), built on first open. */
  Embed.prototype.build = function () {
    var c = this;
    var popup = c.mode === 'popup';
    c.overlay = make(
      'div',
      {},
      {
        position: 'fixed',
        top: '0',
        right: '0',
        bottom: '0',
        left: '0',
        zIndex: String(Z),
        background: 'rgba(0,0,0,.5)',
        display: 'none',
        opacity: '0',
        transition: reduced ? '' : 'opacity .2s',
      },
    );
    c.dialog = make(
      'div',
      { role: 'dialog', 'aria-modal': 'true', 'aria-label': c.label, id: c.id },
      popup
        ? {
            position: 'absolute',
            top: '50%',
            left: '50%',
            transform: 'translate(-50%,-50%)',
            width: size(attr(c.el, 'width', ''), '640px'),
            maxWidth: 'calc(100vw - 32px)',
            background: '#fff',
            borderRadius: '10px',
            boxShadow: '0 10px 40px rgba(0,0,0,.35)',
            overflow: 'hidden',
          }
        : {
            position: 'absolute',
            top: '0',
            bottom: '0',
            width: size(attr(c.el, 'width', ''), '420px'),
            maxWidth: '100vw',
            background: '#fff',
            boxShadow: '0 0 40px rgba(0,0,0,.35)',
            display: 'flex',
            flexDirection: 'column',
            transform: 'translateX(' + (c.side === 'right' ? '100%' : '-100%') + ')',
            transition: reduced ? '' : 'transform .25s ease-out',
          },
    );
    if (!popup) c.dialog.style[c.side] = '0';
    var bar = make('div', {}, { display: 'flex', justifyContent: 'flex-end' });
    c.closeBtn = make(
      'button',
      { type: 'button', 'aria-label': 'Close' },
      {
        width: '44px',
        height: '44px',
        border: '0',
        background: 'transparent',
        font: '28px/1 system-ui,sans-serif',
        color: '#333',
        cursor: 'pointer',
      },
    );
    c.closeBtn.textContent = '\u00d7';
    c.closeBtn.addEventListener('click', function () {
      c.close();
    });
    bar.appendChild(c.closeBtn);
    c.frame = c.iframe(
      popup
        ? { display: 'block', width: '100%', height: '420px', maxHeight: 'calc(100vh - 120px)', border: '0' }
        : { display: 'block', width: '100%', flex: '1 1 auto', border: '0' },
    );
    // Focus trap: Tab past the iframe lands on `end` (back to Close); Shift+Tab before Close on `start` (to the iframe).
    var start = make('div', { tabindex: '0' });
    var end = make('div', { tabindex: '0' });
    start.addEventListener('focus', function () {
      c.frame.focus();
    });
    end.addEventListener('focus', function () {
      c.closeBtn.focus();
    });
    c.dialog.appendChild(start);
    c.dialog.appendChild(bar);
    c.dialog.appendChild(c.frame);
    c.dialog.appendChild(end);
    c.overlay.appendChild(c.dialog);
    c.overlay.addEventListener('click', function (e) {
      if (e.target === c.overlay) c.close();
    });
    document.body.appendChild(c.overlay);
  };

  Embed.prototype.open = function () {
    var c = this;
    if (c.mode === 'inline' || c.isOpen) return;
    embeds.forEach(function (o) {
      if (o !== c) o.close();
    });
    if (!c.overlay) {
      c.build();
      c.trigger.setAttribute('aria-controls', c.id); // only once the dialog exists
    }
    c.opener = document.activeElement && document.activeElement !== document.body ? document.activeElement : c.trigger;
    c.isOpen = c.opened = true;
    c.overflow = document.documentElement.style.overflow;
    document.documentElement.style.overflow = 'hidden';
    c.overlay.style.display = 'block';
    void c.overlay.offsetWidth; // start the transition from the hidden state
    c.overlay.style.opacity = '1';
    if (c.mode !== 'popup') c.dialog.style.transform = 'translateX(0)';
    c.trigger.setAttribute('aria-expanded', 'true');
    c.closeBtn.focus();
  };

  Embed.prototype.close = function () {
    var c = this;
    if (!c.isOpen) return;
    c.isOpen = false;
    c.overlay.style.display = 'none';
    c.overlay.style.opacity = '0';
    if (c.mode !== 'popup') c.dialog.style.transform = 'translateX(' + (c.side === 'right' ? '100%' : '-100%') + ')';
    document.documentElement.style.overflow = c.overflow || '';
    c.trigger.setAttribute('aria-expanded', 'false');
    if (c.opener && c.opener.focus && document.documentElement.contains(c.opener)) c.opener.focus();
    emit(c.el, c.kind + ':closed', {});
  };

  Embed.prototype.toggle = function () {
    if (this.isOpen) this.close();
    else this.open();
  };

  /** A message from this embed's iframe (origin and source already checked). */
  Embed.prototype.receive = function (d) {
    var c = this;
    if (d.type === 'embed:resize') {
      var h = Number(d.height);
      if (isFinite(h) && h > 0 && h < 100000 && c.mode !== 'slider' && c.mode !== 'sidetab') c.frame.style.height = Math.ceil(h) + 'px';
    } else if (d.type === 'embed:escape') {
      c.close();
    } else if (d.type === c.kind + ':ready') {
      emit(c.el, d.type, {});
    } else if (d.type === 'form:submitted' && c.kind === 'form') {
      emit(c.el, d.type, { submission_id: String(d.submission_id || '') });
      var after = Number(attr(c.el, 'auto-close', ''));
      if (after > 0)
        setTimeout(function () {
          c.close();
        }, after);
      if (typeof d.redirect_url === 'string' && /^https?:\/\//i.test(d.redirect_url))
        setTimeout(function () {
          location.assign(d.redirect_url);
        }, 0);
    } else if (d.type === 'booking:scheduled' && c.kind === 'booking') {
      emit(c.el, d.type, {
        meeting_id: String(d.meeting_id || ''),
        status: String(d.status || ''),
        start_time: String(d.start_time || ''),
      });
    }
  };

  window.addEventListener('message', function (ev) {
    if (ev.origin !== BASE) return; // only the service's own pages speak to us
    var d = ev.data;
    if (!d || d.fss !== 1 || typeof d.type !== 'string') return;
    for (var i = 0; i < embeds.length; i++) {
      if (embeds[i].frame && ev.source === embeds[i].frame.contentWindow) embeds[i].receive(d);
    }
  });
  document.addEventListener('keydown', function (e) {
    if (e.key !== 'Escape') return;
    embeds.forEach(function (c) {
      c.close();
    });
  });

  function find(el) {
    for (var i = 0; i < embeds.length; i++) if (embeds[i].el === el) return embeds[i];
    return null;
  }
  function init() {
    var els = document.querySelectorAll('[data-form],[data-booking]');
    for (var i = 0; i < els.length; i++) {
      if (!find(els[i]) && attr(els[i], els[i].hasAttribute('data-form') ? 'form' : 'booking', '')) embeds.push(new Embed(els[i]));
    }
    return embeds.length;
  }
  /** An embed by element or selector; without one, the first that opens (popup, slider, sidetab). */
  function pick(target) {
    if (target == null) {
      for (var i = 0; i < embeds.length; i++) if (embeds[i].mode !== 'inline') return embeds[i];
      return null;
    }
    return find(typeof target === 'string' ? document.querySelector(target) : target);
  }
  function call(name) {
    return function (target) {
      var c = pick(target);
      if (!c) return false;
      c[name]();
      return true;
    };
  }

  window.FssEmbed = { version: '1', init: init, open: call('open'), close: call('close'), toggle: call('toggle') };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
