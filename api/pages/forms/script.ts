/**
 * The form page's progressive enhancement (plain ES5-style JS, no bundle). Without it the form
 * posts as application/x-www-form-urlencoded and the server answers with a page. With it:
 * JSON posts to the same endpoint, errors shown beside each field, progress saved as `partial`
 * on change, then the same submission completed; redirect_url or the success message afterwards.
 */
import { ROUTED_SCRIPT } from './routed-step';

export const FORM_SCRIPT = String.raw`(function () {
  var form = document.getElementById('fss-form');
  if (!form || !window.fetch) return;
  form.noValidate = true;
  var endpoint = form.getAttribute('action');
  var summary = document.getElementById('form-error');
  var success = document.getElementById('form-success');
  var button = form.querySelector('button[type=submit]');
  var hp = form.querySelector('input[name=website_url]');
  var ref = form.querySelector('input[name="tracking[referrer]"]');
  var embed = window.__fssEmbed;
  var submissionId = null, chain = Promise.resolve(), timer = null, dirty = false;
  // Multi-step forms: the current step, the resume token and the progress (see steps-html.ts).
  var stepInput = form.querySelector('input[name=step]');
  var sidInput = form.querySelector('input[name=submission_id]');
  var nextBtn = form.querySelector('button[value=next]');
  var backBtn = form.querySelector('button[value=back]');
  var progress = document.getElementById('form-progress');
  if (sidInput) submissionId = sidInput.value;

${ROUTED_SCRIPT}
  function collect() {
    var out = {};
    var nodes = form.querySelectorAll('[data-name]');
    for (var i = 0; i < nodes.length; i++) {
      var n = nodes[i], name = n.getAttribute('data-name'), type = n.getAttribute('data-type'), v;
      if (n.closest('fieldset[disabled]')) continue;
      if (type === 'hidden') v = n.value;
      else if (type === 'multi_select') {
        v = [];
        var boxes = n.querySelectorAll('input:checked');
        for (var j = 0; j < boxes.length; j++) v.push(boxes[j].value);
        if (!v.length) v = undefined;
      } else if (type === 'radio' || type === 'rating') {
        var picked = n.querySelector('input:checked');
        v = picked ? (type === 'rating' ? Number(picked.value) : picked.value) : undefined;
      } else if (type === 'checkbox') {
        v = n.querySelector('input').checked ? true : undefined;
      } else {
        var c = n.querySelector('input,textarea,select');
        v = c.value;
        if (type === 'number' && v !== '' && !isNaN(Number(v))) v = Number(v);
      }
      if (v !== undefined && v !== '') out[name] = v;
    }
    return out;
  }

  function send(status, nav) {
    var body = { fields: collect(), tracking: { referrer: (ref && ref.value) || document.referrer || null } };
    if (nav) { body.step = Number(stepInput.value); body.nav = nav; } else body.status = status;
    if (submissionId) body.submission_id = submissionId;
    if (hp && hp.value) body.website_url = hp.value;
    return fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) })
      .then(function (res) { return res.json().then(function (j) { return { status: res.status, body: j, retryAfter: res.headers.get('retry-after') }; }); });
  }

  function clearErrors() {
    summary.hidden = true;
    summary.textContent = '';
    var errs = form.querySelectorAll('.error');
    for (var i = 0; i < errs.length; i++) { errs[i].hidden = true; errs[i].textContent = ''; }
    var bad = form.querySelectorAll('[aria-invalid=true]');
    for (var k = 0; k < bad.length; k++) bad[k].removeAttribute('aria-invalid');
  }

  function showErrors(details) {
    var first = null, count = 0;
    for (var i = 0; i < details.length; i++) {
      var m = /^(?:body\.)?fields\.(.+)$/.exec(details[i].path);
      var wrap = m && form.querySelector('[data-name="' + m[1].replace(/"/g, '') + '"]');
      if (!wrap || wrap.getAttribute('data-type') === 'hidden') continue;
      var p = document.getElementById('f-' + m[1] + '-error');
      var labelEl = wrap.querySelector('label,legend');
      p.textContent = (labelEl ? labelEl.textContent.replace(/\s*\*$/, '') + ' ' : '') + details[i].message;
      p.hidden = false;
      var control = wrap.tagName === 'FIELDSET' ? wrap : wrap.querySelector('input,textarea,select');
      control.setAttribute('aria-invalid', 'true');
      if (!first) first = wrap.querySelector('input,textarea,select');
      count++;
    }
    summary.textContent = count ? 'Please correct ' + count + (count === 1 ? ' answer.' : ' answers.') : 'The form could not be sent. Please try again.';
    summary.hidden = false;
    if (first) first.focus();
  }

  function savePartial() {
    if (!dirty) return;
    dirty = false;
    chain = chain.then(function () { return send('partial'); }).then(function (r) {
      if (r.status < 300 && r.body.data) submissionId = r.body.data.id;
    }, function () {});
  }

  form.addEventListener('change', function () {
    dirty = true;
    clearTimeout(timer);
    timer = setTimeout(savePartial, 800);
  });

  function showStep(d) {
    var steps = form.querySelectorAll('fieldset.step');
    for (var i = 0; i < steps.length; i++) {
      var on = Number(steps[i].getAttribute('data-step')) === d.step;
      steps[i].hidden = !on;
      steps[i].disabled = !on;
    }
    var conds = form.querySelectorAll('fieldset.cond');
    var off = d.hidden_fields || [];
    for (var k = 0; k < conds.length; k++) {
      var hide = off.indexOf(conds[k].getAttribute('data-cond')) >= 0;
      conds[k].hidden = hide;
      conds[k].disabled = hide;
    }
    stepInput.value = String(d.step);
    var count = progress.getAttribute('data-count');
    document.getElementById('form-progress-text').textContent = 'Step ' + (d.step + 1) + ' of ' + count;
    progress.querySelector('progress').value = d.step + 1;
    nextBtn.textContent = nextBtn.getAttribute(d.last ? 'data-submit' : 'data-next');
    backBtn.hidden = d.step === 0;
    var first = form.querySelector('fieldset.step:not([disabled]) input:not([type=hidden]),fieldset.step:not([disabled]) select,fieldset.step:not([disabled]) textarea');
    if (first) first.focus();
  }

  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    clearTimeout(timer);
    dirty = false;
    clearErrors();
    var nav = stepInput ? ((ev.submitter && ev.submitter.value) || 'next') : null;
    button.disabled = true;
    chain = chain.then(function () { return send('completed', nav); }).then(function (r) {
      if (r.status === 429) {
        // The form is at its budget: keep every answer and send them again when the window passes.
        var wait = Math.max(1, Math.min(120, Number(r.retryAfter) || 5));
        summary.textContent = 'Many people are answering right now. Your answers are kept and will be sent again in ' + wait + ' seconds.';
        summary.hidden = false;
        var submitter = ev.submitter;
        setTimeout(function () { button.disabled = false; if (form.requestSubmit) form.requestSubmit(submitter || undefined); }, wait * 1000);
        return;
      }
      button.disabled = false;
      if (r.status < 300 && r.body.data.status === 'partial' && nav) {
        submissionId = r.body.data.id;
        showStep(r.body.data);
        return;
      }
      if (r.status < 300) {
        var score = document.getElementById('form-score');
        if (score && form.getAttribute('data-show-score') && r.body.data.score !== undefined) {
          score.textContent = 'You scored ' + r.body.data.score + ' out of ' + r.body.data.max_score + '.';
          score.hidden = false;
        }
        var redirect = form.getAttribute('data-redirect');
        if (embed) embed.post('form:submitted', { submission_id: r.body.data.id, redirect_url: redirect || null });
        if (routed(r.body.data.routing, embed)) return;
        if (r.body.data.routing) redirect = null;
        if (redirect && !(embed && embed.managed)) { window.location.assign(redirect); return; }
        form.hidden = true;
        success.hidden = false;
        success.focus();
        return;
      }
      showErrors((r.body && r.body.error && r.body.error.details) || []);
    }, function () {
      button.disabled = false;
      showErrors([]);
    });
  });
})();`;
