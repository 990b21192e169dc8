import type { ServiceDeps } from '../deps';
import { routedTimelineEntries } from './timeline-routing';

const LIMIT = 100;

interface TimelineRow {
  id: string;
  type: string;
  occurred_at: Date;
  detail: {
    from?: string;
    subject?: string;
    text?: string;
    message_id?: string | null;
    in_reply_to?: Record<string, string | null>;
  };
}

/**
 * The contact's timeline for the contact detail, newest first (the last 100): for now the replies
 * to any of our mail (`email.replied`, services/mail/replies.ts), with the reply's first 500
 * characters and what it answered; and routed submissions with the meetings booked from them
 * (timeline-routing.ts).
 */
export async function listContactTimeline(deps: Pick<ServiceDeps, 'db'>, { teamId, contactId }: { teamId: string; contactId: string }) {
  const { db } = deps;
  const routed = routedTimelineEntries(deps, { teamId, contactId, limit: LIMIT });
  const rows: TimelineRow[] = await db('contact_timeline')
    .where({ team_id: teamId, contact_id: contactId })
    .orderBy([
      { column: 'occurred_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(LIMIT)
    .select('id', 'type', 'occurred_at', 'detail');
  const replies = rows.map((r) => {
    const d = r.detail ?? {};
    const to = d.in_reply_to ?? {};
    return {
      id: r.id,
      type: r.type as 'email.replied',
      occurred_at: r.occurred_at,
      email: {
        from: d.from ?? '',
        subject: d.subject ?? '',
        excerpt: (d.text ?? '').slice(0, 500),
        message_id: d.message_id ?? null,
        in_reply_to: {
          type: (to.type ?? 'other') as 'sequence' | 'meeting' | 'other',
          message_id: to.message_id ?? null,
          sequence_id: to.sequence_id ?? null,
          enrollment_id: to.enrollment_id ?? null,
          step_id: to.step_id ?? null,
          meeting_id: to.meeting_id ?? null,
          email_kind: to.email_kind ?? null,
        },
      },
    };
  });
  const all = [...replies, ...(await routed)];
  all.sort((a, b) => new Date(b.occurred_at).getTime() - new Date(a.occurred_at).getTime() || (a.id < b.id ? 1 : -1));
  return all.slice(0, LIMIT);
}
