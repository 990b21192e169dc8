import { code, detailsMarkdown, oneLine } from '../operators/metadata';

/** The calendar sync workflow's summary and details: `Calendar sync: Ada's work calendar (caldav, dav.example.com)`. */
export function calendarSyncMetadata(c: { id: string; teamId: string; userId: string; name: string; kind: string; host: string }) {
  return {
    summary: oneLine(`Calendar sync: ${oneLine(c.name, 80)} (${c.kind}, ${c.host})`),
    details: detailsMarkdown(`Sync of the calendar connection ${c.name}`, [
      ['Connection', `${code(c.id)}: \`/api/v1/calendar-connections/${c.id}\``],
      ['Sync now', `\`POST /api/v1/calendar-connections/${c.id}/sync\` (the \`calendarSyncNow\` signal)`],
      ['User', code(c.userId)],
      ['Team', code(c.teamId)],
    ]),
  };
}
