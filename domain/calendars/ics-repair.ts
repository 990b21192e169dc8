/**
 * The repairs real publishers need before ical.js reads their text (ics-parse.ts). Pure: no I/O.
 *
 * A cheap pass first (regular expressions on the whole text). When ical.js still refuses the text, the
 * text is read line by line: each content line that ical.js cannot read alone is dropped and reported,
 * components are closed where the text forgets to, and whatever lies outside a VCALENDAR is dropped. An
 * unreadable line costs that line, never the calendar (docs/calendars.md, "One bad line").
 */
import ICAL from 'ical.js';

/** A part of the text that was not read, and why (shown to the user, counted on the connection). */
export interface Skipped {
  /** `VEVENT <uid>`, `VTIMEZONE <tzid>` or `line 12 (RRULE)`. */
  what: string;
  reason: string;
}

/** Date properties whose value may be written as a bare date (`DTSTART:20190101`) without VALUE=DATE. */
const DATE_LINE = /^(DTSTART|DTEND|DUE|RECURRENCE-ID|RDATE|EXDATE)((?:;[^:\r\n]*)?):(\d{8}(?:,\d{8})*)\r?$/gim;
/** A date-time written under VALUE=DATE (`DTSTART;VALUE=DATE:20110804T120000`): it is the date-time it says. */
const DATE_TIME_AS_DATE =
  /^(DTSTART|DTEND|DUE|RECURRENCE-ID|RDATE|EXDATE)((?:;[^:\r\n]*)?);VALUE=DATE((?:;[^:\r\n]*)?):(\d{8}T\d{6}Z?(?:,\d{8}T\d{6}Z?)*)\r?$/gim;
/** A PERIOD of dates (`RDATE;VALUE=PERIOD:19970101/19970102`; RFC 5545 allows date-times only): its start dates. */
const DATE_PERIOD = /^(RDATE(?:;[^:\r\n]*)?);VALUE=PERIOD((?:;[^:\r\n]*)?):(\d{8}\/\d{8}(?:,\d{8}\/\d{8})*)\r?$/gim;
/** An RRULE, RDATE or EXDATE with no value at all. */
const EMPTY_DATES = /^(?:RRULE|RDATE|EXDATE)(?:;[^:\r\n]*)?:[ \t]*\r?\n/gim;
/** An RRULE line: its enumerated values are case-insensitive (RFC 5545 3.3.10), ical.js reads upper case only. */
const RRULE_LINE = /^(RRULE|EXRULE)((?:;[^:\r\n]*)?):(.*)$/gim;

/**
 * The repairs the reference readers also make: a date written without `VALUE=DATE` gets it, a date-time
 * written under `VALUE=DATE` loses it, a PERIOD of dates becomes its start dates, an RRULE is read in
 * upper case, an empty RRULE, RDATE or EXDATE line is dropped; a byte order mark goes.
 */
export function repairText(text: string): string {
  let out = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  out = out.replace(EMPTY_DATES, '');
  out = out.replace(RRULE_LINE, (_l, name: string, params: string, value: string) => `${name}${params}:${value.toUpperCase()}`);
  out = out.replace(
    DATE_TIME_AS_DATE,
    (_l, name: string, before: string, after: string, value: string) => `${name}${before}${after}:${value}`,
  );
  out = out.replace(DATE_PERIOD, (_l, head: string, params: string, value: string) => {
    const starts = value.split(',').map((p) => p.slice(0, 8));
    return `${head}${params};VALUE=DATE:${starts.join(',')}`;
  });
  return out.replace(DATE_LINE, (line, name: string, params: string, value: string) =>
    /;VALUE=/i.test(params) ? line : `${name}${params};VALUE=DATE:${value}`,
  );
}

const nameOf = (line: string) => /^[A-Za-z0-9-]*/.exec(line)![0].toUpperCase();

/**
 * The text rebuilt from the lines ical.js can read, each checked alone (after the repairs above):
 * unreadable lines are dropped and reported; an END that closes an open component closes those opened
 * inside it too; a stray END is dropped; lines outside every VCALENDAR are dropped; open components are
 * closed at the end.
 */
export function salvageText(text: string, skipped: Skipped[]): string {
  const lines = repairText(text.replace(/\r?\n[ \t]/g, '')).split(/\r?\n|\r/);
  const out: string[] = [];
  const stack: string[] = [];
  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    if (!line) return;
    const name = nameOf(line);
    const value = line
      .slice(line.indexOf(':') + 1)
      .trim()
      .toUpperCase();
    if ((name === 'BEGIN' || name === 'END') && /^[A-Z0-9-]+$/.test(value)) {
      if (name === 'BEGIN') {
        if (stack.length === 0 && value !== 'VCALENDAR')
          return skipped.push({ what: `line ${i + 1} (BEGIN:${value})`, reason: 'outside any VCALENDAR' });
        stack.push(value);
        out.push(`BEGIN:${value}`);
      } else if (stack.includes(value)) {
        while (stack.length) {
          const top = stack.pop()!;
          out.push(`END:${top}`);
          if (top === value) break;
        }
      } else skipped.push({ what: `line ${i + 1} (END:${value})`, reason: 'closes no open component' });
      return;
    }
    if (stack.length === 0) return skipped.push({ what: `line ${i + 1} (${name || '?'})`, reason: 'outside any VCALENDAR' });
    try {
      ICAL.parse.property(line);
      out.push(line);
    } catch (e) {
      skipped.push({ what: `line ${i + 1} (${name || '?'})`, reason: (e as Error).message.slice(0, 120) });
    }
  });
  while (stack.length) out.push(`END:${stack.pop()!}`);
  return out.join('\r\n') + '\r\n';
}
