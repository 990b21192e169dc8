import { validationFailed } from '../../core/errors';
import type { Executor } from '../../db/knex';
import { checkDestinationCalendar } from '../calendars/destination';
import type { ServiceDeps } from '../deps';

/**
 * An event type's calendar settings, checked when it is saved (docs/scheduling.md "Host calendars:
 * write-back", docs/calendars.md "Google Meet"):
 * - `destination_calendar_id` must be a writable calendar of a host of its page (destination.ts);
 * - a location whose video adapter is `google_meet` needs a Google destination calendar for every
 *   host of the page (the event type's own calendar for its host, else the host's booking calendar):
 *   the Meet link is made on that calendar's event. Else a 400 naming `location_type`. The same for
 *   `microsoft_teams` with a Microsoft destination calendar (the Teams meeting of that event).
 */
export async function checkEventTypeCalendars(
  deps: { db: Executor } & Partial<Pick<ServiceDeps, 'video'>>,
  input: { teamId: string; pageId: string; locationType: string | null; destinationCalendarId: string | null },
): Promise<void> {
  const { db } = deps;
  let override: { userId: string; kind: string } | null = null;
  if (input.destinationCalendarId)
    override = await checkDestinationCalendar(db, { teamId: input.teamId, pageId: input.pageId, calendarId: input.destinationCalendarId });
  const adapter = deps.video?.adapterOf(input.locationType);
  const need = adapter === 'google_meet' ? 'google' : adapter === 'microsoft_teams' ? 'microsoft' : null;
  if (!need) return;
  const hosts = (await db('scheduling_page_hosts as h')
    .join('users as u', 'u.id', 'h.user_id')
    .where({ 'h.page_id': input.pageId })
    .select('u.id', 'u.email')) as Array<{ id: string; email: string }>;
  const withGoogle = new Set(
    (
      (await db('calendar_connection_calendars as c')
        .join('calendar_connections as k', 'k.id', 'c.connection_id')
        .whereIn(
          'c.user_id',
          hosts.map((h) => h.id),
        )
        .where({ 'c.is_booking_calendar': true, 'c.read_only': false, 'k.kind': need })
        .whereNot('k.status', 'disconnecting')
        .select('c.user_id')) as Array<{ user_id: string }>
    ).map((r) => r.user_id),
  );
  if (override) {
    if (override.kind === need) withGoogle.add(override.userId);
    else withGoogle.delete(override.userId);
  }
  const missing = hosts.filter((h) => !withGoogle.has(h.id)).map((h) => h.email);
  if (missing.length)
    throw validationFailed([
      {
        path: 'body.location_type',
        message:
          need === 'google'
            ? `${input.locationType} is Google Meet, which needs a Google destination calendar for every host; none for ${missing.join(', ')}`
            : `${input.locationType} is Microsoft Teams, which needs a Microsoft destination calendar for every host; none for ${missing.join(', ')}`,
      },
    ]);
}
