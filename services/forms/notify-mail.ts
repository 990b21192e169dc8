import { escapeHtml } from '../../core/html';
import type { FormField } from '../../domain/form-fields';
import type { WorkerDeps } from '../deps';

/** An answer as one line of text (multi-select joined, booleans as Yes/No, empty as a dash). */
function answerText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/** The notification for one submission: the form's title, then each field's label and answer. */
export function renderSubmissionNotification(
  form: { title: string; fields: FormField[] },
  submission: { fields: Record<string, unknown>; submitted_at: Date },
): { subject: string; text: string; html: string } {
  const rows = form.fields.map((f) => [f.label || f.name, answerText(submission.fields[f.name])] as const);
  const when = submission.submitted_at.toISOString();
  const subject = `New submission: ${form.title}`.replace(/[\r\n]+/g, ' ').slice(0, 200);
  const text = [`New submission to "${form.title}" at ${when}`, '', ...rows.map(([label, answer]) => `${label}: ${answer}`)].join('\n');
  const html =
    `<p>New submission to <strong>${escapeHtml(form.title)}</strong> at ${escapeHtml(when)}</p>` +
    `<table>${rows.map(([label, answer]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(answer)}</td></tr>`).join('')}</table>`;
  return { subject, text, html };
}

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
  const host = new URL(config.baseUrl).hostname || 'localhost';
  await mailer.send({ to, ...mail, messageId: `<submission-${input.submissionId}@${host}>` });
  return to.length;
}
