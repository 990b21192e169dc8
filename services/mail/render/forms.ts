import { escapeHtml } from '../../../core/html';
import type { FormField } from '../../../domain/form-fields';

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
