import type { FormField } from '../../../domain/form-fields';
import { stepOf } from '../../../domain/form-logic';
import type { FormRow } from '../../../services/forms/forms';
import type { PageView } from '../../../services/forms/public-page';
import { escapeHtml as e } from '../../../core/html';
import { fieldHtml, type FieldState } from './fields-html';

/** A field the logic does not ask (yet) is kept in the page, disabled (never posted) and hidden. */
function askedHtml(f: FormField, s: FieldState, view: PageView | undefined): string {
  const html = fieldHtml(f, s);
  if (!view || view.asked.has(f.name)) return html;
  return `<fieldset class="cond" data-cond="${e(f.name)}" disabled hidden>${html}</fieldset>`;
}

/** A one-page form: every field in order (fields not asked by the logic disabled and hidden). */
export function onePageHtml(form: FormRow, s: FieldState, view?: PageView): string {
  return form.fields.map((f) => askedHtml(f, s, view)).join('\n');
}

/**
 * A form with steps: the progress, hidden fields, every step (only the current one enabled and
 * shown: disabled controls are not posted, so without JavaScript a post carries one step), the
 * resume token and the step number, then Next (or Submit on the last step) and Back.
 */
export function stepsHtml(form: FormRow, s: FieldState, view: PageView): string {
  const hidden = form.fields.filter((f) => f.type === 'hidden').map((f) => fieldHtml(f, s));
  const steps: string[] = [];
  for (let n = 0; n < view.count; n++) {
    const fields = form.fields.filter((f) => f.type !== 'hidden' && stepOf(f) === n);
    const on = n === view.step;
    steps.push(
      `<fieldset class="step" data-step="${n}" aria-label="Step ${n + 1}"${on ? '' : ' disabled hidden'}>${fields.map((f) => askedHtml(f, s, view)).join('\n')}</fieldset>`,
    );
  }
  const submitLabel = form.settings.submit_label || 'Submit';
  return `<div class="progress" id="form-progress" data-count="${view.count}"><span id="form-progress-text">Step ${view.step + 1} of ${view.count}</span>
<progress value="${view.step + 1}" max="${view.count}" aria-labelledby="form-progress-text"></progress></div>
<input type="hidden" name="step" value="${view.step}">
${view.submissionId ? `<input type="hidden" name="submission_id" value="${e(view.submissionId)}">` : ''}
${hidden.join('\n')}
${steps.join('\n')}
<div class="nav"><button type="submit" name="nav" value="next" data-next="Next" data-submit="${e(submitLabel)}">${e(view.last ? submitLabel : 'Next')}</button><button type="submit" name="nav" value="back" class="secondary" formnovalidate${view.back === null ? ' hidden' : ''}>Back</button></div>`;
}
