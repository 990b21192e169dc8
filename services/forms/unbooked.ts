import type { Enqueue } from '../../temporal/outbox';
import type { RoutingRecord } from '../../domain/routing';
import { unbookedFollowUpWorkflowId, type UnbookedFollowUpInput, type UnbookedOutcome } from '../../workflows/forms/contract';
import { code, detailsMarkdown, oneLine } from '../operators/metadata';
import type { ServiceDeps } from '../deps';
import { enroll } from '../sequences/enroll';
import type { FormRow } from './forms';

const HOUR = 3_600_000;

/**
 * Start `form-unbooked-<submission_id>` through the outbox, in the submission's transaction, when
 * the submission was routed to an event type and the form has `settings.routing.unbooked`
 * (docs/forms.md "Routing"). Its summary names the form and the wait (docs/operators.md).
 */
export async function enqueueUnbookedFollowUp(
  enqueue: Enqueue,
  {
    form,
    submissionId,
    routing,
  }: { form: Pick<FormRow, 'id' | 'team_id' | 'title' | 'settings'>; submissionId: string; routing: RoutingRecord },
): Promise<void> {
  const unbooked = form.settings.routing?.unbooked;
  if (routing.target !== 'event_type' || !unbooked) return;
  const args: UnbookedFollowUpInput = {
    submissionId,
    teamId: form.team_id,
    sequenceId: unbooked.sequence_id,
    waitMs: Math.round(unbooked.after_hours * HOUR),
  };
  await enqueue({
    workflowType: 'unbookedFollowUpWorkflow',
    workflowId: unbookedFollowUpWorkflowId(submissionId),
    args: [args],
    searchAttributes: { TeamId: form.team_id },
    summary: oneLine(
      `Unbooked follow-up of a "${oneLine(form.title, 60)}" submission: sequence after ${unbooked.after_hours} h without a meeting`,
    ),
    details: detailsMarkdown(`Routed submission ${submissionId}: waits for a meeting booked from it`, [
      ['Submission', `${code(submissionId)}: \`/api/v1/submissions/${submissionId}\``],
      ['Form', `${code(form.id)}: \`/api/v1/forms/${form.id}\``],
      ['Event type', routing.event_type_id ? code(routing.event_type_id) : null],
      ['Then', `enroll the contact in sequence ${code(unbooked.sequence_id)} after ${unbooked.after_hours} h`],
      ['Signal', '`routedMeetingBooked` (a booking from the link) ends the wait; the activity re-checks the meetings anyway'],
      ['Team', code(form.team_id)],
    ]),
  });
}

/**
 * The follow-up when the wait is over: no meeting booked from the submission (cancelled ones do
 * not count as booked) → enroll its contact in the sequence. Safe to run twice: an enrollment of
 * the contact in that sequence made since the submission counts as done.
 */
export async function followUpUnbooked(
  deps: Pick<ServiceDeps, 'db' | 'outbox' | 'config'>,
  input: UnbookedFollowUpInput,
): Promise<UnbookedOutcome> {
  const { db } = deps;
  const sub = await db('submissions').where({ id: input.submissionId, team_id: input.teamId }).first('contact_id', 'submitted_at');
  if (!sub?.contact_id) return 'skipped';
  const meeting = await db('meetings').where({ submission_id: input.submissionId }).whereNot('status', 'cancelled').first('id');
  if (meeting) return 'booked';
  const earlier = await db('sequence_enrollments')
    .where({ sequence_id: input.sequenceId, contact_id: sub.contact_id })
    .where('enrolled_at', '>=', sub.submitted_at)
    .first('status');
  if (earlier) return earlier.status === 'skipped' ? 'skipped' : 'enrolled';
  const seq = await db('sequences').where({ id: input.sequenceId, team_id: input.teamId }).first('status');
  if (!seq || seq.status === 'archived') return 'skipped';
  const [row] = await enroll(deps, { teamId: input.teamId, sequenceId: input.sequenceId, values: { contact_id: sub.contact_id } });
  return row?.status === 'active' ? 'enrolled' : 'skipped';
}
