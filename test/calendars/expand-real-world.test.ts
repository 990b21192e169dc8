/**
 * domain/calendars/expand.ts on the shapes real publishers write (issue 42; docs/calendars.md, "One bad
 * line" and "Outlook's all-day series"): one case per decision. The rest of expand's rules: expand.test.ts.
 */
import { readBusy, type ExpandOptions } from '../../domain/calendars/expand';

const iso = (s: string) => Date.parse(s);
const cal = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//fss test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const event = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20300101T000000Z', ...lines, 'END:VEVENT'];
const base: ExpandOptions = {
  from: iso('2030-01-01T00:00:00Z'),
  to: iso('2031-01-01T00:00:00Z'),
  hostEmails: [],
  hostZone: 'Europe/Berlin',
};

function busy(text: string, opts: Partial<ExpandOptions> = {}): string[] {
  return readBusy(text, { ...base, ...opts }).busy.map((o) => `${new Date(o.start).toISOString()}/${new Date(o.end).toISOString()}`);
}
const hour = (day: string, h: string) => `${day}T${h}:00:00.000Z/${day}T${String(Number(h) + 1).padStart(2, '0')}:00:00.000Z`;

describe('one bad line costs that line or that event, never the calendar', () => {
  const good = event('UID:good', 'DTSTART:20300107T090000Z', 'DTEND:20300107T100000Z');

  it('reads an RRULE with lower-case values (RFC 5545 enumerations are case-insensitive)', () => {
    const text = cal(...event('UID:w', 'DTSTART:20300107T090000Z', 'DTEND:20300107T100000Z', 'RRULE:freq=Weekly;count=3;byday=mo'));
    expect(readBusy(text, base).skipped).toEqual([]);
    expect(busy(text)).toEqual([hour('2030-01-07', '09'), hour('2030-01-14', '09'), hour('2030-01-21', '09')]);
  });

  it('one unreadable RRULE among hundreds of events: that event is skipped and reported, its own time still blocks', () => {
    const many = Array.from({ length: 400 }, (_, i) =>
      event(`UID:e${i}`, `DTSTART:20300201T${String(i % 24).padStart(2, '0')}0000Z`, 'DURATION:PT30M'),
    ).flat();
    const bad = event('UID:bad', 'DTSTART:20300301T090000Z', 'DTEND:20300301T100000Z', 'RRULE:FREQ=WEEKLY;BYDAY=XX');
    const read = readBusy(cal(...many, ...bad), base);
    expect(read.busy).toHaveLength(401);
    expect(read.busy.some((o) => o.uid === 'bad' && o.start === iso('2030-03-01T09:00:00Z'))).toBe(true);
    expect(read.skipped.length).toBeGreaterThan(0);
  });

  it('a property without a value, and a lost line fold in an X- property, cost those lines', () => {
    const text = cal(
      ...event('UID:x', 'SUMMARY', 'X-ALT-DESC;FMTTYPE=text/html:<p>one', 'two</p>', 'DTSTART:20300107T090000Z', 'DTEND:20300107T100000Z'),
    );
    const read = readBusy(text, base);
    expect(read.busy.map((o) => o.uid)).toEqual(['x']);
    expect(read.skipped.map((s) => s.what)).toEqual([expect.stringMatching(/\(SUMMARY\)$/), expect.stringMatching(/\(TWO\)$/)]);
  });

  it('an empty VTIMEZONE is skipped; its TZID is read as the host zone', () => {
    const text = cal(
      'BEGIN:VTIMEZONE',
      'TZID:Custom',
      'END:VTIMEZONE',
      ...event('UID:z', 'DTSTART;TZID=Custom:20300107T090000', 'DURATION:PT1H'),
    );
    const read = readBusy(text, base);
    expect(read.skipped).toEqual([{ what: 'VTIMEZONE Custom', reason: 'no STANDARD or DAYLIGHT' }]);
    expect(busy(text)).toEqual([hour('2030-01-07', '08')]);
  });

  it('a PERIOD RDATE written with dates: its start dates', () => {
    const text = cal(...event('UID:p', 'DTSTART;VALUE=DATE:20300107', 'RDATE;VALUE=PERIOD:20300109/20300110,20300111/20300112'));
    expect(busy(text)).toEqual([
      '2030-01-06T23:00:00.000Z/2030-01-07T23:00:00.000Z',
      '2030-01-08T23:00:00.000Z/2030-01-09T23:00:00.000Z',
      '2030-01-10T23:00:00.000Z/2030-01-11T23:00:00.000Z',
    ]);
  });

  it('content after END:VCALENDAR is dropped and reported (it used to throw a TypeError)', () => {
    const read = readBusy(cal(...good) + 'X-TRAILER:junk\r\nmore junk\r\n', base);
    expect(read.busy.map((o) => o.uid)).toEqual(['good']);
    expect(read.skipped.map((s) => s.reason)).toEqual(['outside any VCALENDAR', 'outside any VCALENDAR']);
  });
});

describe("Outlook's all-day series (host zone Europe/Berlin, the calendar's VTIMEZONE W. Europe Standard Time)", () => {
  const zone = [
    'BEGIN:VTIMEZONE',
    'TZID:W. Europe Standard Time',
    'BEGIN:STANDARD',
    'DTSTART:16010101T000000',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0100',
    'END:STANDARD',
    'END:VTIMEZONE',
  ];
  const days = (text: string) => readBusy(text, base).busy.map((o) => new Date(o.start + 3_600_000).toISOString().slice(0, 10));

  it('an EXDATE;TZID=… at local midnight removes that all-day occurrence', () => {
    const text = cal(
      ...zone,
      ...event(
        'UID:o',
        'DTSTART;VALUE=DATE:20300107',
        'DTEND;VALUE=DATE:20300108',
        'RRULE:FREQ=DAILY;COUNT=3',
        'EXDATE;TZID=W. Europe Standard Time:20300108T000000',
      ),
    );
    expect(days(text)).toEqual(['2030-01-07', '2030-01-09']);
  });

  it('an UNTIL in UTC equal to local midnight of the last day keeps that day', () => {
    const text = cal(
      ...zone,
      ...event('UID:u', 'DTSTART;VALUE=DATE:20300107', 'DTEND;VALUE=DATE:20300108', 'RRULE:FREQ=DAILY;UNTIL=20300108T230000Z'),
    );
    expect(days(text)).toEqual(['2030-01-07', '2030-01-08', '2030-01-09']);
  });
});

it('a date-time under VALUE=DATE is the date-time it says (a timed event, not a whole day)', () => {
  const text = cal(...event('UID:t', 'DTSTART;VALUE=DATE:20300107T120000Z', 'DTEND;VALUE=DATE:20300107T130000Z'));
  expect(busy(text)).toEqual([hour('2030-01-07', '12')]);
});

describe('two VEVENTs with one UID and no RECURRENCE-ID', () => {
  const copy = (seq: number, h: string) => event('UID:dup', `SEQUENCE:${seq}`, `DTSTART:20300107T${h}0000Z`, 'DURATION:PT1H');

  it('the higher SEQUENCE replaces the lower', () => {
    expect(busy(cal(...copy(2, '10'), ...copy(1, '09')))).toEqual([hour('2030-01-07', '10')]);
  });

  it('at equal SEQUENCE the busy times are united (once each), also across two VCALENDARs in one file', () => {
    expect(busy(cal(...copy(0, '09'), ...copy(0, '10'), ...copy(0, '10')))).toEqual([hour('2030-01-07', '09'), hour('2030-01-07', '10')]);
    expect(busy(cal(...copy(0, '09')) + cal(...copy(0, '11')))).toEqual([hour('2030-01-07', '09'), hour('2030-01-07', '11')]);
  });
});
