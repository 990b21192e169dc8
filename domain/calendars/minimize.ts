/**
 * What we keep of a host's calendar object (docs/calendars.md "What is stored"): only what decides
 * busy time. Descriptive properties (title, description, location, attachments, conference
 * details, alarms) are dropped before the object is stored; times, recurrence (RRULE, RDATE,
 * EXDATE, RECURRENCE-ID), TRANSP, STATUS, ORGANIZER, ATTENDEE and VTIMEZONE stay. Pure text work:
 * lines are unfolded (RFC 5545 §3.1), which any iCalendar parser reads.
 */
const DROPPED = new Set([
  'SUMMARY',
  'DESCRIPTION',
  'LOCATION',
  'COMMENT',
  'CONTACT',
  'ATTACH',
  'URL',
  'CATEGORIES',
  'RESOURCES',
  'GEO',
  'IMAGE',
  'CONFERENCE',
  'X-ALT-DESC',
  'X-APPLE-STRUCTURED-LOCATION',
  'X-APPLE-TRAVEL-ADVISORY-BEHAVIOR',
  'X-GOOGLE-CONFERENCE',
  'X-MICROSOFT-SKYPETEAMSMEETINGURL',
  'X-MICROSOFT-ONLINEMEETINGCONFLINK',
]);

/** Components dropped whole. */
const DROPPED_COMPONENTS = new Set(['VALARM']);

export function minimizeIcs(text: string): string {
  const lines = text.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  const out: string[] = [];
  let skipping: string | null = null;
  for (const line of lines) {
    if (line === '') continue;
    const name = /^[A-Za-z0-9-]+/.exec(line)?.[0]?.toUpperCase() ?? '';
    if (skipping) {
      if (name === 'END' && line.slice(4).trim().toUpperCase() === skipping) skipping = null;
      continue;
    }
    if (name === 'BEGIN' && DROPPED_COMPONENTS.has(line.slice(6).trim().toUpperCase())) {
      skipping = line.slice(6).trim().toUpperCase();
      continue;
    }
    if (DROPPED.has(name)) continue;
    out.push(line);
  }
  return out.join('\r\n') + '\r\n';
}
