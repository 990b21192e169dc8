import type { MeetingsRow } from '../../../db/tables';
import type { Db } from '../../../db/knex';
import { instantDaysAhead } from '../../helpers/open-day';

let slot = 0;

/** A meeting row in the scheduling feature's table (004), for the meeting-booked rules. */
export async function insertMeeting(db: Db, teamId: string, contactId: string, status: MeetingsRow['status']): Promise<string> {
  const host = await db('users').where({ team_id: teamId }).first('id');
  const start = new Date(instantDaysAhead(10 + slot++)); // any day: written straight to the table
  const end = new Date(start.getTime() + 30 * 60_000);
  const [m] = await db('meetings')
    .insert({
      team_id: teamId,
      host_user_id: host!.id,
      contact_id: contactId,
      title: 'Intro',
      attendee_name: 'Ada',
      attendee_email: 'ada@example.com',
      start_time: start,
      end_time: end,
      block_start: start,
      block_end: end,
      status,
    })
    .returning('id');
  return m.id;
}
