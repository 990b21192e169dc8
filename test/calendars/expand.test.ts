/**
 * domain/calendars/expand.ts: busy time of an iCalendar object inside a window, one case per rule.
 */
import ICAL from 'ical.js';
import { CalendarParseError, expandBusy, MAX_OCCURRENCES_PER_EVENT, readBusy, type ExpandOptions } from '../../domain/calendars/expand';

const iso = (s: string) => Date.parse(s);
const cal = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//fss test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const event = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20300101T000000Z', ...lines, 'END:VEVENT'];

const base: ExpandOptions = {
  from: iso('2030-01-01T00:00:00Z'),
  to: iso('2031-01-01T00:00:00Z'),
  hostEmails: ['Host@Example.com'],
  hostZone: 'Europe/Berlin',
};

/** Occurrences as ISO strings, for readable expectations. */
function expand(text: string, opts: Partial<ExpandOptions> = {}): Array<[string, string]> {
  return expandBusy(text, { ...base, ...opts }).map((o) => [new Date(o.start).toISOString(), new Date(o.end).toISOString()]);
}

const NEW_YORK = [
  'BEGIN:VTIMEZONE',
  'TZID:Eastern Standard Time',
  'BEGIN:STANDARD',
  'DTSTART:16011104T020000',
  'RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:16010311T020000',
  'RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
];

describe('expandBusy', () => {
  it('returns a single UTC event, and only when it overlaps [from, to)', () => {
    const text = cal(...event('UID:one', 'DTSTART:20300105T100000Z', 'DTEND:20300105T110000Z'));
    expect(expandBusy(text, base)).toEqual([{ uid: 'one', start: iso('2030-01-05T10:00:00Z'), end: iso('2030-01-05T11:00:00Z') }]);
    // Overlapping either edge counts; touching does not.
    expect(expand(text, { from: iso('2030-01-05T10:30:00Z'), to: iso('2030-01-05T12:00:00Z') })).toHaveLength(1);
    expect(expand(text, { from: iso('2030-01-05T09:00:00Z'), to: iso('2030-01-05T10:00:01Z') })).toHaveLength(1);
    expect(expand(text, { from: iso('2030-01-05T11:00:00Z'), to: iso('2030-01-06T00:00:00Z') })).toEqual([]);
    expect(expand(text, { from: iso('2030-01-05T00:00:00Z'), to: iso('2030-01-05T10:00:00Z') })).toEqual([]);
  });

  it('expands an RRULE (every occurrence, not only the first)', () => {
    const text = cal(...event('UID:weekly', 'DTSTART:20300107T090000Z', 'DTEND:20300107T093000Z', 'RRULE:FREQ=WEEKLY;COUNT=3'));
    expect(expand(text)).toEqual([
      ['2030-01-07T09:00:00.000Z', '2030-01-07T09:30:00.000Z'],
      ['2030-01-14T09:00:00.000Z', '2030-01-14T09:30:00.000Z'],
      ['2030-01-21T09:00:00.000Z', '2030-01-21T09:30:00.000Z'],
    ]);
  });

  it('counts COUNT itself: a monthly rule whose BYMONTH names a month before DTSTART keeps all its occurrences', () => {
    // ical.js alone ends this one early (8 of 9); the reference expander and RFC 5545 give 9.
    const rule = 'RRULE:FREQ=MONTHLY;COUNT=9;BYDAY=+3WE;BYMONTH=1,2,3,4,5,9,10,11,12';
    const text = cal(...event('UID:third-wed', 'DTSTART:20300918T120000Z', 'DTEND:20300918T130000Z', rule));
    const starts = expand(text, { to: iso('2032-01-01T00:00:00Z') }).map(([s]) => s.slice(0, 10));
    expect(starts).toEqual([
      '2030-09-18',
      '2030-10-16',
      '2030-11-20',
      '2030-12-18',
      '2031-01-15',
      '2031-02-19',
      '2031-03-19',
      '2031-04-16',
      '2031-05-21',
    ]);
  });

  it('adds RDATEs and removes EXDATEs', () => {
    const text = cal(
      ...event(
        'UID:daily',
        'DTSTART:20300301T080000Z',
        'DURATION:PT1H',
        'RRULE:FREQ=DAILY;UNTIL=20300304T080000Z',
        'RDATE:20300310T150000Z',
        'EXDATE:20300302T080000Z,20300303T080000Z',
      ),
    );
    expect(expand(text)).toEqual([
      ['2030-03-01T08:00:00.000Z', '2030-03-01T09:00:00.000Z'],
      ['2030-03-04T08:00:00.000Z', '2030-03-04T09:00:00.000Z'],
      ['2030-03-10T15:00:00.000Z', '2030-03-10T16:00:00.000Z'],
    ]);
  });

  it('applies a RECURRENCE-ID override that moves one occurrence and one that cancels another (same VCALENDAR)', () => {
    const text = cal(
      ...event('UID:series', 'DTSTART:20300107T090000Z', 'DTEND:20300107T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=4'),
      ...event('UID:series', 'RECURRENCE-ID:20300114T090000Z', 'DTSTART:20300115T130000Z', 'DTEND:20300115T140000Z'),
      ...event('UID:series', 'RECURRENCE-ID:20300121T090000Z', 'DTSTART:20300121T090000Z', 'DTEND:20300121T100000Z', 'STATUS:CANCELLED'),
    );
    expect(expand(text)).toEqual([
      ['2030-01-07T09:00:00.000Z', '2030-01-07T10:00:00.000Z'],
      ['2030-01-15T13:00:00.000Z', '2030-01-15T14:00:00.000Z'],
      ['2030-01-28T09:00:00.000Z', '2030-01-28T10:00:00.000Z'],
    ]);
  });

  it('applies an override that arrives in another VCALENDAR of the same text, and keeps an orphan override as an event', () => {
    const text =
      cal(...event('UID:series', 'DTSTART:20300107T090000Z', 'DTEND:20300107T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=2')) +
      cal(...event('UID:series', 'RECURRENCE-ID:20300114T090000Z', 'DTSTART:20300114T160000Z', 'DTEND:20300114T170000Z')) +
      cal(...event('UID:only-one-instance', 'RECURRENCE-ID:20300120T090000Z', 'DTSTART:20300120T090000Z', 'DTEND:20300120T093000Z'));
    expect(expand(text)).toEqual([
      ['2030-01-07T09:00:00.000Z', '2030-01-07T10:00:00.000Z'],
      ['2030-01-14T16:00:00.000Z', '2030-01-14T17:00:00.000Z'],
      ['2030-01-20T09:00:00.000Z', '2030-01-20T09:30:00.000Z'],
    ]);
  });

  it('blocks nothing for TRANSP:TRANSPARENT or STATUS:CANCELLED (recurring or not)', () => {
    const text = cal(
      ...event('UID:free', 'DTSTART:20300105T100000Z', 'DTEND:20300105T110000Z', 'TRANSP:TRANSPARENT'),
      ...event('UID:free-series', 'DTSTART:20300105T100000Z', 'DTEND:20300105T110000Z', 'RRULE:FREQ=DAILY;COUNT=5', 'TRANSP:TRANSPARENT'),
      ...event('UID:gone', 'DTSTART:20300106T100000Z', 'DTEND:20300106T110000Z', 'STATUS:CANCELLED'),
      ...event('UID:busy', 'DTSTART:20300107T100000Z', 'DTEND:20300107T110000Z', 'TRANSP:OPAQUE'),
    );
    expect(expandBusy(text, base).map((o) => o.uid)).toEqual(['busy']);
  });

  it('blocks nothing when the host declined (mailto matched case-insensitively), and still blocks when someone else did', () => {
    const text = cal(
      ...event(
        'UID:declined',
        'DTSTART:20300105T100000Z',
        'DTEND:20300105T110000Z',
        'ORGANIZER:mailto:boss@example.com',
        'ATTENDEE;PARTSTAT=DECLINED;CN=Host:MAILTO:host@EXAMPLE.com',
        'ATTENDEE;PARTSTAT=ACCEPTED:mailto:other@example.com',
      ),
      ...event(
        'UID:other-declined',
        'DTSTART:20300106T100000Z',
        'DTEND:20300106T110000Z',
        'ATTENDEE;PARTSTAT=ACCEPTED:mailto:host@example.com',
        'ATTENDEE;PARTSTAT=DECLINED:mailto:other@example.com',
      ),
    );
    expect(expandBusy(text, base).map((o) => o.uid)).toEqual(['other-declined']);
    // With another host address list, the first event blocks again.
    expect(expandBusy(text, { ...base, hostEmails: ['someone@else.com'] }).map((o) => o.uid)).toEqual(['declined', 'other-declined']);
  });

  it("blocks the host's whole local day(s) for all-day events, in hostZone, including a 23-hour DST day", () => {
    const text = cal(
      ...event('UID:day', 'DTSTART;VALUE=DATE:20300305', 'DTEND;VALUE=DATE:20300306'),
      ...event('UID:no-end', 'DTSTART;VALUE=DATE:20300310'),
      ...event('UID:two-days', 'DTSTART;VALUE=DATE:20300330', 'DTEND;VALUE=DATE:20300401'),
    );
    expect(expand(text)).toEqual([
      ['2030-03-04T23:00:00.000Z', '2030-03-05T23:00:00.000Z'],
      ['2030-03-09T23:00:00.000Z', '2030-03-10T23:00:00.000Z'],
      // Berlin springs forward on 2030-03-31: that day has 23 hours.
      ['2030-03-29T23:00:00.000Z', '2030-03-31T22:00:00.000Z'],
    ]);
    // The same text for a host in New York blocks New York's days.
    expect(expand(text, { hostZone: 'America/New_York' })[0]).toEqual(['2030-03-05T05:00:00.000Z', '2030-03-06T05:00:00.000Z']);
  });

  it('reads floating times in hostZone, and a TZID without a VTIMEZONE as an IANA zone', () => {
    const text = cal(
      ...event('UID:floating', 'DTSTART:20300705T090000', 'DTEND:20300705T100000'),
      ...event('UID:iana', 'DTSTART;TZID=Asia/Tokyo:20300706T090000', 'DTEND;TZID=Asia/Tokyo:20300706T100000'),
      ...event(
        'UID:unknown-tzid',
        'DTSTART;TZID=Nowhere Standard Time:20300707T090000',
        'DTEND;TZID=Nowhere Standard Time:20300707T100000',
      ),
    );
    expect(expand(text)).toEqual([
      ['2030-07-05T07:00:00.000Z', '2030-07-05T08:00:00.000Z'], // Berlin, summer time
      ['2030-07-06T00:00:00.000Z', '2030-07-06T01:00:00.000Z'], // Tokyo
      ['2030-07-07T07:00:00.000Z', '2030-07-07T08:00:00.000Z'], // unknown: the host's zone
    ]);
    expect(expand(text, { hostZone: 'America/New_York' })[0]).toEqual(['2030-07-05T13:00:00.000Z', '2030-07-05T14:00:00.000Z']);
  });

  it('honours the VTIMEZONE across a DST change: weekly over three weeks with one EXDATE and one moved occurrence', () => {
    // America/New_York (defined in the object under an Outlook-style name) falls back on Sunday 2030-11-03.
    const tz = 'TZID=Eastern Standard Time';
    const text = cal(
      ...NEW_YORK,
      ...event(
        'UID:weekly-ny',
        `DTSTART;${tz}:20301023T100000`,
        `DTEND;${tz}:20301023T110000`,
        'RRULE:FREQ=WEEKLY;BYDAY=WE',
        `EXDATE;${tz}:20301030T100000`,
      ),
      ...event('UID:weekly-ny', `RECURRENCE-ID;${tz}:20301106T100000`, `DTSTART;${tz}:20301107T140000`, `DTEND;${tz}:20301107T150000`),
    );
    const opts = { from: iso('2030-10-21T04:00:00Z'), to: iso('2030-11-14T05:00:00Z'), hostZone: 'Europe/Berlin' };
    expect(expand(text, opts)).toEqual([
      ['2030-10-23T14:00:00.000Z', '2030-10-23T15:00:00.000Z'], // 10:00 EDT
      // 2030-10-30: EXDATE
      ['2030-11-07T19:00:00.000Z', '2030-11-07T20:00:00.000Z'], // moved from Wed 6th to Thu 7th 14:00 EST
      ['2030-11-13T15:00:00.000Z', '2030-11-13T16:00:00.000Z'], // 10:00 EST: the wall time is kept after the change
    ]);
    // The object's VTIMEZONE was registered for the call only.
    expect(ICAL.TimezoneService.has('Eastern Standard Time')).toBe(false);
  });

  it('honours VTIMEZONE with the same DST rule in Europe (Berlin, late October), RECURRENCE-ID given in UTC', () => {
    const text = cal(
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Berlin',
      'BEGIN:DAYLIGHT',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'DTSTART:19700329T020000',
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
      'END:DAYLIGHT',
      'BEGIN:STANDARD',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'DTSTART:19701025T030000',
      'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
      'END:STANDARD',
      'END:VTIMEZONE',
      ...event(
        'UID:standup',
        'DTSTART;TZID=Europe/Berlin:20301024T091500',
        'DTEND;TZID=Europe/Berlin:20301024T093000',
        'RRULE:FREQ=DAILY;COUNT=5',
      ),
      // The 26th's occurrence (07:15Z) cancelled, addressed by its UTC instant.
      ...event('UID:standup', 'RECURRENCE-ID:20301026T071500Z', 'DTSTART:20301026T071500Z', 'DTEND:20301026T073000Z', 'STATUS:CANCELLED'),
    );
    expect(expand(text, { hostZone: 'UTC' })).toEqual([
      ['2030-10-24T07:15:00.000Z', '2030-10-24T07:30:00.000Z'],
      ['2030-10-25T07:15:00.000Z', '2030-10-25T07:30:00.000Z'],
      ['2030-10-27T08:15:00.000Z', '2030-10-27T08:30:00.000Z'], // after the change: 09:15 CET
      ['2030-10-28T08:15:00.000Z', '2030-10-28T08:30:00.000Z'],
    ]);
  });

  it('reads a custom VTIMEZONE of RDATE onsets: each DTSTART and every RDATE value is an onset, and before the first the offset it leaves', () => {
    const zone = ['BEGIN:VTIMEZONE', 'TZID:Our Pacific', 'BEGIN:STANDARD', 'DTSTART:20291104T020000', 'TZOFFSETFROM:-0700']
      .concat(['TZOFFSETTO:-0800', 'RDATE:20301103T020000', 'END:STANDARD', 'BEGIN:DAYLIGHT', 'DTSTART:20300310T020000'])
      .concat(['TZOFFSETFROM:-0800', 'TZOFFSETTO:-0700', 'RDATE:20310309T020000,20320314T020000', 'END:DAYLIGHT', 'END:VTIMEZONE']);
    const at = (local: string) =>
      expand(cal(...zone, ...event('UID:p', `DTSTART;TZID=Our Pacific:${local}`, `DTEND;TZID=Our Pacific:${local.slice(0, 9)}130000`)), {
        from: iso('2029-01-01T00:00:00Z'),
        to: iso('2033-01-01T00:00:00Z'),
      })[0][0];
    expect(at('20290601T120000')).toBe('2029-06-01T19:00:00.000Z'); // before the first onset: its TZOFFSETFROM
    expect(at('20291201T120000')).toBe('2029-12-01T20:00:00.000Z'); // the STANDARD DTSTART onset
    expect(at('20300401T120000')).toBe('2030-04-01T19:00:00.000Z'); // the DAYLIGHT DTSTART onset
    expect(at('20301201T120000')).toBe('2030-12-01T20:00:00.000Z');
    expect(at('20320401T120000')).toBe('2032-04-01T19:00:00.000Z'); // the second value of an RDATE line
  });

  it('restores a TimezoneService registration the object shadowed', () => {
    const own = new ICAL.Timezone({ tzid: 'Test/Shadowed', component: ICAL.Component.fromString(NEW_YORK.join('\r\n')) });
    ICAL.TimezoneService.register(own, 'Test/Shadowed');
    try {
      const text = cal(
        'BEGIN:VTIMEZONE',
        'TZID:Test/Shadowed',
        'BEGIN:STANDARD',
        'DTSTART:19700101T000000',
        'TZOFFSETFROM:+0530',
        'TZOFFSETTO:+0530',
        'END:STANDARD',
        'END:VTIMEZONE',
        ...event('UID:ist', 'DTSTART;TZID=Test/Shadowed:20300105T100000', 'DTEND;TZID=Test/Shadowed:20300105T110000'),
      );
      expect(expand(text)).toEqual([['2030-01-05T04:30:00.000Z', '2030-01-05T05:30:00.000Z']]);
      expect(ICAL.TimezoneService.get('Test/Shadowed')).toBe(own);
    } finally {
      ICAL.TimezoneService.remove('Test/Shadowed');
    }
  });

  it('caps an unbounded RRULE, and fast-forwards an old daily series to the window', () => {
    const minutely = cal(...event('UID:minutely', 'DTSTART:20300101T000000Z', 'DURATION:PT30S', 'RRULE:FREQ=MINUTELY'));
    // Past the cap the event is reported as skipped, not half-read: its first occurrence still blocks.
    const capped = readBusy(minutely, base);
    expect(capped.skipped).toEqual([
      { what: 'VEVENT minutely', reason: expect.stringMatching(`more than ${MAX_OCCURRENCES_PER_EVENT} occurrences`) },
    ]);
    expect(capped.busy.map((o) => [o.start, o.end])).toEqual([[iso('2030-01-01T00:00:00Z'), iso('2030-01-01T00:00:30Z')]]);
    // A typo in a rule part is not an endless series: the event is skipped and reported, its own time blocks.
    const typo = readBusy(
      cal(...event('UID:typo', 'DTSTART:20300101T100000Z', 'DURATION:PT1H', 'RRULE:FREQ=WEEKLY;BYDAY=TH;UNTL=20300301')),
      base,
    );
    expect(typo.skipped).toEqual([{ what: 'VEVENT typo', reason: 'RRULE has an unknown part: UNTL' }]);
    expect(typo.busy.map((o) => [o.start, o.end])).toEqual([[iso('2030-01-01T10:00:00Z'), iso('2030-01-01T11:00:00Z')]]);

    const old = cal(
      ...event(
        'UID:since-1990',
        'DTSTART;TZID=America/New_York:19900102T093000',
        'DTEND;TZID=America/New_York:19900102T094500',
        'RRULE:FREQ=DAILY',
      ),
      ...event('UID:biweekly', 'DTSTART;VALUE=DATE:19950103', 'RRULE:FREQ=WEEKLY;INTERVAL=2'),
    );
    const t0 = Date.now();
    const window = { from: iso('2030-06-03T00:00:00Z'), to: iso('2030-06-17T00:00:00Z'), hostZone: 'America/New_York' };
    const occ = expandBusy(old, { ...base, ...window });
    expect(Date.now() - t0).toBeLessThan(2000);
    const daily = occ.filter((o) => o.uid === 'since-1990');
    expect(daily).toHaveLength(14);
    expect(new Date(daily[0].start).toISOString()).toBe('2030-06-03T13:30:00.000Z');
    // 1995-01-03 was a Tuesday; every other Tuesday since: 2030-06-04 is one of them (1826 weeks later).
    expect(occ.filter((o) => o.uid === 'biweekly').map((o) => new Date(o.start).toISOString())).toEqual(['2030-06-04T04:00:00.000Z']);
  });

  it('skips a VTIMEZONE with an offset out of range (+5744 for +00:57:44), and reads its TZID with the tz database', () => {
    const zone = (offset: string) => [
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Prague',
      'BEGIN:STANDARD',
      'DTSTART:18500101T000000',
      `TZOFFSETFROM:${offset}`,
      `TZOFFSETTO:${offset}`,
      'END:STANDARD',
      'END:VTIMEZONE',
    ];
    const ev = event('UID:prague', 'DTSTART;TZID=Europe/Prague:20300105T100000', 'DTEND;TZID=Europe/Prague:20300105T110000');
    for (const offset of ['+5744', '+0075']) {
      const read = readBusy(cal(...zone(offset), ...ev), base);
      expect(read.skipped).toEqual([{ what: 'VTIMEZONE Europe/Prague', reason: expect.stringMatching(/TZOFFSETFROM out of range/) }]);
      expect(read.busy.map((o) => [o.start, o.end])).toEqual([[iso('2030-01-05T09:00:00Z'), iso('2030-01-05T10:00:00Z')]]);
    }
    expect(expand(cal(...zone('+0100'), ...ev))).toEqual([['2030-01-05T09:00:00.000Z', '2030-01-05T10:00:00.000Z']]);
  });

  it('throws CalendarParseError, and nothing else, on text without a VCALENDAR; skips and reports what a VCALENDAR holds unread', () => {
    const bad = [
      '',
      'hello, I am not a calendar',
      '<html><body>Sign in</body></html>',
      'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Someone\r\nEND:VCARD\r\n',
    ];
    const partial = [
      cal(...event('UID:no-start', 'SUMMARY:missing DTSTART')),
      cal(...event('UID:bad-date', 'DTSTART:2030-13-45T99:00:00Z')),
      cal(...event('UID:bad-date2', 'DTSTART:20301345T990000Z', 'DTEND:20301345T990000Z')),
      cal(...event('UID:bad-rule', 'DTSTART:20300105T100000Z', 'DTEND:20300105T110000Z', 'RRULE:FREQ=SOMETIMES;COUNT=x')),
    ];
    for (const text of partial) expect({ text, skipped: readBusy(text, base).skipped.length > 0 }).toEqual({ text, skipped: true });
    // Truncated: the open components are closed, the event is read.
    const truncated = 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20300105T100000Z\r\nDURATION:PT1H\r\n';
    expect(expand(truncated)).toEqual([['2030-01-05T10:00:00.000Z', '2030-01-05T11:00:00.000Z']]);
    for (const text of bad) {
      let thrown: unknown = null;
      try {
        expandBusy(text, base);
      } catch (e) {
        thrown = e;
      }
      expect({ text, isParseError: thrown instanceof CalendarParseError }).toEqual({ text, isParseError: true });
    }
    expect(() => expandBusy(cal(), { ...base, hostZone: 'Mars/Olympus' })).toThrow(RangeError);
    expect(expandBusy(cal(), base)).toEqual([]);
  });
});
