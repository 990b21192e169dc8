import { renderSubmissionNotification } from '../mail/render/forms';
import { mailHost } from '../mail/render/links';
import type { WorkerDeps } from '../deps';

/**
 * Email a completed submission to its form's `notify_emails` (read now, so a list emptied
 * meanwhile sends nothing). The Message-ID is fixed per submission: a retry after an SMTP
 * timeout that was in fact delivered shows up as the same message, which mail clients merge.
 */
export async function sendSubmissionNotification(deps: WorkerDeps, input: { submissionId: string }): Promise<number> {
  const { db, mailer, config } = deps;
  const row = await db('submissions as s')
    .join('forms as f', 'f.id', 's.form_id')
    .where({ 's.id': input.submissionId, 's.status': 'completed' })
    .first('s.fields', 's.submitted_at', 'f.title', 'f.fields as form_fields', 'f.settings');
  const to: string[] = row?.settings?.notify_emails ?? [];
  if (!row || to.length === 0) return 0;
  const mail = renderSubmissionNotification(
    { title: row.title, fields: row.form_fields },
    { fields: row.fields, submitted_at: row.submitted_at },
  );
  await mailer.send({ to, ...mail, messageId: `<submission-${input.submissionId}@${mailHost(config)}>` });
  return to.length;
}
