import fc from 'fast-check';
import { DateTime } from 'luxon';
import { EXIT_REASONS, exitReasonLabel } from '../../domain/exit-reasons';
import { nextSendTime } from '../../domain/sending-window';
import { renderTemplate, unknownPlaceholders } from '../../domain/templates';
import { renderEmail } from '../../services/mail/render/sequences';

describe('templates', () => {
  test('known placeholders and custom fields pass; unknown ones and stray braces are reported', () => {
    expect(unknownPlaceholders('Hi {{first_name}} {{ last_name }} from {{custom.company}} {{unsubscribe_url}}')).toEqual([]);
    expect(unknownPlaceholders('Hi {{firstname}} {{custom.}}')).toEqual(['firstname', 'custom.']);
    expect(unknownPlaceholders('Hi {{first_name}')).toEqual(['unbalanced braces']);
  });
  test('rendering fills contact fields and escapes when asked', () => {
    const c = { first_name: '<b>Ada</b>', last_name: 'L', custom_fields: { company: 'ACME' } };
    expect(renderTemplate('{{full_name}} @ {{custom.company}} {{phone}}', c)).toBe('<b>Ada</b> L @ ACME ');
    expect(renderTemplate('{{first_name}}', c, { escape: (s) => s.replace(/</g, '&lt;') })).toBe('&lt;b>Ada&lt;/b>');
  });
  test('an email gets click redirects, a pixel and an unsubscribe link', () => {
    const m = renderEmail(
      { subject: 'Hi {{first_name}}', body: '<a href="https://a.example/x?y=1&amp;z=2">go</a>' },
      { first_name: 'Ada' },
      'https://svc.example',
      'TOKEN123456',
    );
    expect(m.subject).toBe('Hi Ada');
    expect(m.links).toEqual(['https://a.example/x?y=1&z=2']);
    expect(m.html).toContain('href="https://svc.example/t/c/TOKEN123456/0"');
    expect(m.html).toContain('src="https://svc.example/t/o/TOKEN123456"');
    expect(m.text).toContain('Unsubscribe: https://svc.example/u/TOKEN123456');
  });
});

describe('sending window', () => {
  const w = { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' };
  test('inside the window: now; before it: today at the start; on a weekend: Monday', () => {
    const at = (iso: string) => nextSendTime(new Date(iso), w, 'America/New_York').toISOString();
    expect(at('2025-03-05T15:00:00Z')).toBe('2025-03-05T15:00:00.000Z'); // Wed 10:00 EST
    expect(at('2025-03-05T12:00:00Z')).toBe('2025-03-05T14:00:00.000Z'); // Wed 07:00 → 09:00 EST
    expect(at('2025-03-08T15:00:00Z')).toBe('2025-03-10T13:00:00.000Z'); // Sat → Mon 09:00 EDT (after the DST change)
  });
  test('property: the result is never earlier than now and always inside the window', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2024-01-01'), max: new Date('2027-01-01'), noInvalidDate: true }),
        fc.constantFrom('UTC', 'Europe/Berlin', 'Asia/Kolkata', 'America/Los_Angeles'),
        (now, zone) => {
          const t = nextSendTime(now, w, zone);
          const local = DateTime.fromJSDate(t, { zone });
          const minutes = local.hour * 60 + local.minute;
          return (
            t >= now &&
            w.days.includes(local.weekday % 7) &&
            minutes >= 9 * 60 &&
            minutes < 17 * 60 &&
            t.getTime() - now.getTime() < 4 * 86_400_000
          );
        },
      ),
    );
  });
  test('no window, or an unknown zone, still works', () => {
    const now = new Date('2025-03-05T03:00:00Z');
    expect(nextSendTime(now, null, 'UTC')).toBe(now);
    expect(nextSendTime(now, w, 'Not/AZone').toISOString()).toBe('2025-03-05T09:00:00.000Z');
  });
});

test('every exit reason has a friendly label', () => {
  for (const r of EXIT_REASONS) expect(exitReasonLabel(r, { sequence_name: 'Demo' })).not.toBe(r);
  expect(exitReasonLabel('added_to_other_sequence', { sequence_name: 'Demo' })).toBe('Added to sequence Demo');
  expect(exitReasonLabel(null)).toBeNull();
});
