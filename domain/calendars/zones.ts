/**
 * Which IANA zone a TZID names, when it names one (docs/calendars.md, "Time zones"):
 * - an IANA name, also when a publisher prefixed it with a path (`/Europe/Stockholm`,
 *   `/mozilla.org/20050126_1/Europe/Berlin`) or quoted it;
 * - a Windows zone name (`Pacific Standard Time`, what Outlook and Exchange write), through CLDR's
 *   windowsZones mapping as the `windows-iana` package keeps it (its first, "001" territory, zone).
 * Such a TZID is read with the runtime's tz database even when the object carries a VTIMEZONE of that
 * name: publishers' VTIMEZONEs are often cut down to one year's rules, and the reference readers
 * (Python icalendar) do the same. Any other TZID uses the object's VTIMEZONE, else the host's zone.
 */
import { IANAZone } from 'luxon';
import { findIana } from 'windows-iana';

const cache = new Map<string, string | null>();
const CACHE_MAX = 1000;

function resolve(tzid: string): string | null {
  const name = tzid.trim().replace(/^"|"$/g, '');
  if (!name) return null;
  if (IANAZone.isValidZone(name) && !/^[+-]?\d/.test(name)) return name;
  const segments = name.split('/').filter(Boolean);
  for (let i = 0; i < segments.length; i++) {
    const candidate = segments.slice(i).join('/');
    if (candidate.includes('/') && IANAZone.isValidZone(candidate)) return candidate;
  }
  const windows = findIana(name);
  const first = windows?.[0];
  return first && IANAZone.isValidZone(first) ? first : null;
}

/** The IANA zone a TZID names, or null when it names none (see the file comment). */
export function ianaZoneFor(tzid: string): string | null {
  let zone = cache.get(tzid);
  if (zone === undefined) {
    zone = resolve(tzid);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(tzid, zone);
  }
  return zone;
}
