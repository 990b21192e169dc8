import type { FieldValue, FormField } from '../../../domain/form-fields';
import { escapeHtml as e } from '../../../core/html';

/** Values to show again and errors to show beside each field (the no-JS round trip). */
export interface FieldState {
  values: Record<string, unknown>;
  errors: Record<string, string>;
  /** The page's query string values (fills hidden fields of the same name). */
  query: Record<string, string>;
}

const INPUT_TYPES: Partial<Record<FormField['type'], string>> = {
  text: 'text',
  email: 'email',
  phone: 'tel',
  number: 'number',
  url: 'url',
  date: 'date',
};
const AUTOCOMPLETE: Record<string, string> = {
  email: 'email',
  first_name: 'given-name',
  last_name: 'family-name',
  phone: 'tel',
  name: 'name',
};

const id = (f: FormField) => `f-${f.name}`;
const inputName = (f: FormField) => `fields[${f.name}]`;

function label(f: FormField, forId: string | null): string {
  const star = f.required ? ' <span class="req" aria-hidden="true">*</span>' : '';
  return forId ? `<label for="${e(forId)}">${e(f.label)}${star}</label>` : `<legend>${e(f.label)}${star}</legend>`;
}

function errorText(f: FormField, err: string | undefined): string {
  return `<p class="error" id="${e(id(f))}-error"${err ? '' : ' hidden'}>${err ? e(`${f.label} ${err}`) : ''}</p>`;
}

/** Attributes shared by every control: required, error wiring. */
function aria(f: FormField, err: string | undefined): string {
  return `${f.required ? ' required aria-required="true"' : ''} aria-describedby="${e(id(f))}-error"${err ? ' aria-invalid="true"' : ''}`;
}

function asText(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

function choices(f: FormField, kind: 'radio' | 'checkbox', selected: unknown, err: string | undefined): string {
  const picked = new Set((Array.isArray(selected) ? selected : [selected]).map(asText));
  const name = kind === 'checkbox' ? `${inputName(f)}[]` : inputName(f);
  const opts =
    f.type === 'rating'
      ? Array.from({ length: f.max ?? 5 }, (_, i) => ({ label: String(i + 1), value: String(i + 1) }))
      : (f.options ?? []);
  const items = opts
    .map((o, i) => {
      const oid = `${id(f)}-${i}`;
      const req = kind === 'radio' && f.required && i === 0 ? ' required' : '';
      return `<div class="choice"><input type="${kind}" id="${e(oid)}" name="${e(name)}" value="${e(o.value)}"${picked.has(o.value) ? ' checked' : ''}${req}><label for="${e(oid)}">${e(o.label)}</label></div>`;
    })
    .join('');
  const cls = f.type === 'rating' ? 'field rating-field' : 'field';
  return `<fieldset class="${cls}" data-name="${e(f.name)}" data-type="${f.type}" aria-describedby="${e(id(f))}-error"${err ? ' aria-invalid="true"' : ''}>${label(f, null)}<div${f.type === 'rating' ? ' class="rating"' : ''}>${items}</div>${errorText(f, err)}</fieldset>`;
}

/** One field as accessible HTML: a label tied to its control, and an error slot tied by aria-describedby. */
export function fieldHtml(f: FormField, s: FieldState): string {
  const v = s.values[f.name];
  const err = s.errors[f.name];
  const wrap = (control: string) =>
    `<div class="field" data-name="${e(f.name)}" data-type="${f.type}">${label(f, id(f))}${control}${errorText(f, err)}</div>`;
  const ph = f.placeholder ? ` placeholder="${e(f.placeholder)}"` : '';
  switch (f.type) {
    case 'hidden':
      return `<input type="hidden" data-name="${e(f.name)}" data-type="hidden" name="${e(inputName(f))}" value="${e(s.query[f.name] ?? asText(v ?? f.default_value))}">`;
    case 'textarea':
      return wrap(`<textarea id="${e(id(f))}" name="${e(inputName(f))}"${ph}${aria(f, err)} maxlength="10000">${e(asText(v))}</textarea>`);
    case 'select': {
      const opts = (f.options ?? [])
        .map((o) => `<option value="${e(o.value)}"${asText(v) === o.value ? ' selected' : ''}>${e(o.label)}</option>`)
        .join('');
      return wrap(
        `<select id="${e(id(f))}" name="${e(inputName(f))}"${aria(f, err)}><option value="">${e(f.placeholder ?? 'Choose…')}</option>${opts}</select>`,
      );
    }
    case 'radio':
    case 'rating':
      return choices(f, 'radio', v, err);
    case 'multi_select':
      return choices(f, 'checkbox', v, err);
    case 'checkbox':
      return `<div class="field" data-name="${e(f.name)}" data-type="checkbox"><div class="choice"><input type="checkbox" id="${e(id(f))}" name="${e(inputName(f))}" value="true"${v === true || v === 'true' || v === 'on' ? ' checked' : ''}${aria(f, err)}>${label(f, id(f))}</div>${errorText(f, err)}</div>`;
    default: {
      const type = INPUT_TYPES[f.type] ?? 'text';
      const extra = [
        f.type === 'number' ? ` step="any"${f.min != null ? ` min="${f.min}"` : ''}${f.max != null ? ` max="${f.max}"` : ''}` : '',
        AUTOCOMPLETE[f.name] || f.type === 'email' ? ` autocomplete="${AUTOCOMPLETE[f.name] ?? 'email'}"` : '',
        f.type === 'text' ? ' maxlength="1000"' : '',
      ].join('');
      return wrap(
        `<input type="${type}" id="${e(id(f))}" name="${e(inputName(f))}" value="${e(asText(v as FieldValue))}"${ph}${extra}${aria(f, err)}>`,
      );
    }
  }
}
