/**
 * The booking widget's browser script (plain ES2020, no bundle). It reads the event types from
 * the page, asks the public availability endpoint (variant B) for the visitor's timezone, and
 * books through the public booking endpoint (variant B).
 */
export const BOOKING_SCRIPT = String.raw`
(function () {
  var root = document.getElementById('booking');
  var tz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  var state = { et: null, slot: null };
  var $ = function (id) { return document.getElementById(id); };
  // Opened from a routed submission (docs/forms.md "Routing"): its token narrows the times to the
  // routed hosts and links the booking; the page's no-JavaScript form is not needed.
  var routingToken = root.getAttribute('data-routing-token');
  if ($('routed-nojs')) $('routed-nojs').remove();
  $('tz').textContent = tz;
  function today() {
    var p = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
    return p.slice(0, 10);
  }
  function addDays(d, n) {
    var t = new Date(d + 'T00:00:00Z'); t.setUTCDate(t.getUTCDate() + n); return t.toISOString().slice(0, 10);
  }
  function label(d) {
    return new Date(d + 'T12:00:00Z').toLocaleDateString(undefined, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });
  }
  function show(id, on) { $(id).hidden = !on; }
  function status(msg) { $('status').textContent = msg; }
  function button(text, attrs, onClick) {
    var b = document.createElement('button'); b.type = 'button'; b.textContent = text;
    Object.keys(attrs).forEach(function (k) { b.setAttribute(k, attrs[k]); });
    b.addEventListener('click', onClick); return b;
  }
  function loadDays() {
    var et = state.et; var days = Math.min(Number(et.getAttribute('data-max-days')) || 14, 60);
    var start = today();
    status('Loading free times…');
    $('days').innerHTML = ''; $('slots').innerHTML = ''; show('details', false); show('slots-section', false);
    var url = '/api/calendar/availability?event_type_id=' + encodeURIComponent(et.getAttribute('data-id')) +
      '&start_date=' + start + '&end_date=' + addDays(start, days) + '&timezone=' + encodeURIComponent(tz) +
      (routingToken ? '&routing_token=' + encodeURIComponent(routingToken) : '');
    fetch(url).then(function (r) { return r.json().then(function (b) { return { ok: r.ok, body: b }; }); }).then(function (res) {
      if (!res.ok) { status(res.body.error ? res.body.error.message : 'Could not load free times'); return; }
      var byDay = {};
      res.body.data.slots.forEach(function (s) { var d = s.start.slice(0, 10); (byDay[d] = byDay[d] || []).push(s); });
      var keys = Object.keys(byDay).sort();
      status(keys.length ? 'Choose a day.' : 'No free times in the next ' + days + ' days.');
      keys.forEach(function (d) {
        $('days').appendChild(button(label(d), { 'data-date': d, 'class': 'day' }, function () { showSlots(d, byDay[d]); }));
      });
      show('days-section', true);
    }).catch(function () { status('Could not load free times'); });
  }
  function showSlots(d, slots) {
    $('slots').innerHTML = ''; show('details', false);
    $('slots-heading').textContent = 'Free times on ' + label(d);
    slots.forEach(function (s) {
      $('slots').appendChild(button(s.start.slice(11, 16), { 'data-start': s.start, 'class': 'slot' }, function () {
        state.slot = s; $('chosen').textContent = label(d) + ' at ' + s.start.slice(11, 16) + ' (' + tz + ')';
        show('details', true); $('name').focus();
      }));
    });
    show('slots-section', true); status('Choose a time.');
  }
  root.querySelectorAll('button.event-type').forEach(function (b) {
    b.addEventListener('click', function () {
      state.et = b; root.querySelectorAll('button.event-type').forEach(function (x) { x.setAttribute('aria-pressed', String(x === b)); });
      loadDays();
    });
    if (routingToken && b.getAttribute('data-id') === root.getAttribute('data-routed-et')) b.click();
  });
  $('details').addEventListener('submit', function (e) {
    e.preventDefault();
    var body = { event_type_id: state.et.getAttribute('data-id'), start_time: state.slot.start, end_time: state.slot.end, timezone: tz,
      name: $('name').value, email: $('email').value };
    if ($('notes').value) body.notes = $('notes').value;
    if (routingToken) body.routing_token = routingToken;
    status('Booking…');
    fetch('/api/calendar/book', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (b) { return { status: r.status, body: b }; }); })
      .then(function (res) {
        if (res.status === 201) {
          if (window.__fssEmbed) window.__fssEmbed.post('booking:scheduled', { meeting_id: res.body.data.id, status: res.body.data.status, start_time: res.body.data.start_time });
          show('picker', false); show('confirmation', true);
          $('confirmation-time').textContent = $('chosen').textContent;
          $('confirmation-status').textContent = res.body.data.status === 'pending_confirmation' ? 'The host will confirm your booking.' : 'You will get an email with the invite.';
          status(''); $('confirmation').focus();
        } else if (res.status === 409) { status('That time was just taken. Please choose another.'); loadDays(); }
        else { status(res.body.error ? res.body.error.message : 'Booking failed'); }
      }).catch(function () { status('Booking failed'); });
  });
})();
`;
