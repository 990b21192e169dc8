import type { ServiceDeps } from '../deps';

/**
 * The routed side of a contact's timeline (docs/forms.md "Routing"): each routed submission
 * (`submission.routed`, with its form and target) and each meeting booked from one
 * (`meeting.booked`, source `routing`, with the submission it links back to), newest first.
 */
export async function routedTimelineEntries(deps: Pick<ServiceDeps, 'db'>, input: { teamId: string; contactId: string; limit: number }) {
  const { db } = deps;
  const { teamId, contactId, limit } = input;
  const [subs, meetings] = await Promise.all([
    db('submissions as s')
      .join('forms as f', 'f.id', 's.form_id')
      .where({ 's.team_id': teamId, 's.contact_id': contactId })
      .whereNotNull('s.routing')
      .orderBy('s.submitted_at', 'desc')
      .limit(limit)
      .select<Array<{ id: string; form_id: string; title: string; submitted_at: Date; target: string }>>(
        's.id',
        's.form_id',
        'f.title',
        's.submitted_at',
        db.raw(`s.routing->>'target' AS target`),
      ),
    db('meetings')
      .where({ team_id: teamId, contact_id: contactId, source: 'routing' })
      .orderBy('created_at', 'desc')
      .limit(limit)
      .select('id', 'created_at', 'start_time', 'submission_id', 'form_id', 'host_user_id'),
  ]);
  return [
    ...subs.map((s) => ({
      id: s.id,
      type: 'submission.routed' as const,
      occurred_at: s.submitted_at,
      submission: { id: s.id, form_id: s.form_id, form_title: s.title, target: s.target as 'event_type' | 'url' | 'message' },
    })),
    ...meetings.map((m) => ({
      id: m.id,
      type: 'meeting.booked' as const,
      occurred_at: m.created_at,
      meeting: {
        id: m.id,
        start_time: m.start_time,
        host_user_id: m.host_user_id,
        source: 'routing' as const,
        submission_id: m.submission_id,
        form_id: m.form_id,
      },
    })),
  ];
}
