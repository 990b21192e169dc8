import type { Enqueue } from '../../temporal/outbox';
import { submissionNotificationWorkflowId } from '../../workflows/forms/contract';
import type { FormRow } from './forms';

/** Whether completed submissions of this form are emailed to someone (settings.notify_emails). */
export const notifiesOnSubmission = (form: Pick<FormRow, 'settings'>): boolean => (form.settings.notify_emails?.length ?? 0) > 0;

/**
 * Start `form-notify-<submission_id>` through the outbox (in the submission's transaction) when
 * the form has notify_emails; the worker sends the email.
 */
export async function enqueueSubmissionNotification(
  enqueue: Enqueue,
  { form, submissionId }: { form: Pick<FormRow, 'team_id' | 'settings'>; submissionId: string },
): Promise<void> {
  if (!notifiesOnSubmission(form)) return;
  await enqueue({
    workflowType: 'submissionNotificationWorkflow',
    workflowId: submissionNotificationWorkflowId(submissionId),
    args: [{ submissionId }],
    searchAttributes: { TeamId: form.team_id },
    summary: `Submission notification for submission ${submissionId} (${form.settings.notify_emails?.length ?? 0} address(es))`,
    details: `- **Submission**: \`/api/v1/submissions/${submissionId}\`\n- **Team**: \`${form.team_id}\``,
  });
}
