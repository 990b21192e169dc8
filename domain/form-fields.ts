import { CONDITION_OPERATORS, type Condition, type ConditionOperator, type FieldValue } from './conditions';

export type { FieldValue };

/**
 * Form field types and the validation of submitted values (pure: no I/O).
 * Caps: text/hidden/phone/email 1,000 chars (email 254, phone 30), textarea 10,000, url 2,048,
 * multi_select 100 choices. A value is rejected when it is of the wrong type, too long, not
 * well-formed UTF-16/UTF-8 (lone surrogates, U+FFFD from undecodable bytes) or holds control characters.
 */
export const FIELD_TYPES = [
  'text',
  'textarea',
  'email',
  'phone',
  'number',
  'url',
  'date',
  'select',
  'multi_select',
  'radio',
  'checkbox',
  'rating',
  'hidden',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const CHOICE_TYPES: readonly FieldType[] = ['select', 'multi_select', 'radio'];

export interface FieldOption {
  label: string;
  value: string;
  /** Quiz forms: points for choosing this option (default 1 when `correct`, else 0). */
  points?: number;
  /** Quiz forms: this option is a correct answer. */
  correct?: boolean;
}

/**
 * The form logic's operators (domain/form-logic.ts): the shared vocabulary of domain/conditions.ts
 * without `in`, whose list value a logic rule cannot carry.
 */
export const LOGIC_OPERATORS = CONDITION_OPERATORS.filter((o): o is Exclude<ConditionOperator, 'in'> => o !== 'in');
export type LogicOperator = (typeof LOGIC_OPERATORS)[number];
export const LOGIC_ACTIONS = ['show', 'hide', 'jump', 'end'] as const;
export type LogicAction = (typeof LOGIC_ACTIONS)[number];

export interface LogicCondition extends Condition {
  operator: LogicOperator;
  value?: string | number | boolean;
}

export interface LogicRule {
  when: LogicCondition;
  action: LogicAction;
  /** jump: the step to go to. */
  to?: number;
}

export interface FormField {
  id: string;
  type: FieldType;
  label: string;
  name: string;
  placeholder?: string | null;
  required: boolean;
  position: number;
  options?: FieldOption[];
  /** number: bounds; rating: max is the scale (default 5). */
  min?: number | null;
  max?: number | null;
  /** hidden: value used when the query string does not carry one. */
  default_value?: string | null;
  /** multi_step and quiz forms: the step (0-based) the field is shown on; hidden fields have none. */
  page?: number;
  /** Conditional logic (domain/form-logic.ts). */
  logic?: LogicRule[];
}

export const VALUE_CAPS = { text: 1000, textarea: 10_000, email: 254, phone: 30, url: 2048, hidden: 1000, multi_select: 100 } as const;

export interface ValueIssue {
  path: string;
  message: string;
}

/** `json`: values must have their JSON type. `form`: values come from an HTML form (strings). */
export type ValueMode = 'json' | 'form';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const CONTROL_OR_NEWLINE = /[\u0000-\u001F\u007F]/;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;
const PHONE = /^\+?[0-9 ()\-.]{5,30}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/** Text checks shared by every string value. Returns an error message or null. */
export function textProblem(s: string, max: number, multiline: boolean): string | null {
  if (s.length > max) return `must be at most ${max} characters`;
  if (LONE_SURROGATE.test(s) || s.includes('\uFFFD')) return 'must be valid UTF-8 text';
  if ((multiline ? CONTROL : CONTROL_OR_NEWLINE).test(s)) return 'contains control characters';
  return null;
}

function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function validUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

type Check = { value: FieldValue } | { error: string };

function checkString(v: unknown, max: number, multiline = false): Check {
  if (typeof v !== 'string') return { error: 'must be a string' };
  const p = textProblem(v, max, multiline);
  return p ? { error: p } : { value: v };
}

function checkNumber(f: FormField, v: unknown, mode: ValueMode, integer: boolean): Check {
  let n: unknown = v;
  if (mode === 'form' && typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) n = Number(v.trim());
  if (typeof n !== 'number' || !Number.isFinite(n)) return { error: 'must be a number' };
  if (integer && !Number.isInteger(n)) return { error: 'must be a whole number' };
  if (f.type === 'rating') {
    const max = f.max ?? 5;
    if (n < 1 || n > max) return { error: `must be from 1 to ${max}` };
  } else {
    if (f.min != null && n < f.min) return { error: `must be at least ${f.min}` };
    if (f.max != null && n > f.max) return { error: `must be at most ${f.max}` };
  }
  return { value: n };
}

function checkChoice(f: FormField, v: unknown): Check {
  const c = checkString(v, VALUE_CAPS.text);
  if ('error' in c) return c;
  const allowed = (f.options ?? []).map((o) => o.value);
  return allowed.includes(c.value as string) ? c : { error: "must be one of the field's options" };
}

function checkValue(f: FormField, v: unknown, mode: ValueMode): Check {
  switch (f.type) {
    case 'text':
      return checkString(v, VALUE_CAPS.text);
    case 'hidden':
      return checkString(v, VALUE_CAPS.hidden);
    case 'textarea':
      return checkString(v, VALUE_CAPS.textarea, true);
    case 'email': {
      const c = checkString(typeof v === 'string' ? v.trim() : v, VALUE_CAPS.email);
      return 'error' in c || EMAIL.test(c.value as string) ? c : { error: 'must be a valid email address' };
    }
    case 'phone': {
      const c = checkString(typeof v === 'string' ? v.trim() : v, VALUE_CAPS.phone);
      if ('error' in c) return c;
      const digits = (c.value as string).replace(/\D/g, '').length;
      return PHONE.test(c.value as string) && digits >= 5 ? c : { error: 'must be a valid phone number' };
    }
    case 'url': {
      const c = checkString(typeof v === 'string' ? v.trim() : v, VALUE_CAPS.url);
      return 'error' in c || validUrl(c.value as string) ? c : { error: 'must be an http or https URL' };
    }
    case 'date': {
      const c = checkString(v, 10);
      return 'error' in c || validDate(c.value as string) ? c : { error: 'must be a date as YYYY-MM-DD' };
    }
    case 'number':
      return checkNumber(f, v, mode, false);
    case 'rating':
      return checkNumber(f, v, mode, true);
    case 'select':
    case 'radio':
      return checkChoice(f, v);
    case 'multi_select': {
      const arr = mode === 'form' && typeof v === 'string' ? [v] : v;
      if (!Array.isArray(arr)) return { error: 'must be an array of option values' };
      if (arr.length > VALUE_CAPS.multi_select) return { error: `must have at most ${VALUE_CAPS.multi_select} choices` };
      for (const item of arr) {
        const c = checkChoice(f, item);
        if ('error' in c) return c;
      }
      return { value: [...new Set(arr as string[])] };
    }
    case 'checkbox': {
      if (typeof v === 'boolean') return { value: v };
      if (mode === 'form' && typeof v === 'string' && ['on', 'true', '1', 'yes'].includes(v)) return { value: true };
      if (mode === 'form' && typeof v === 'string' && ['off', 'false', '0', 'no'].includes(v)) return { value: false };
      return { error: 'must be true or false' };
    }
  }
}

export interface ValidationResult {
  values: Record<string, FieldValue>;
  issues: ValueIssue[];
}

/**
 * Validate submitted values against the form's fields. Unknown names are issues. Empty values are
 * dropped. When `requireAll` (a completed submission), required fields must be present in
 * `values` merged over `previous` (the earlier partial save); a required checkbox must be true.
 */
export function validateValues(
  fields: FormField[],
  input: Record<string, unknown>,
  opts: { mode: ValueMode; requireAll: boolean; previous?: Record<string, FieldValue>; prefix?: string },
): ValidationResult {
  const prefix = opts.prefix ?? 'fields';
  const byName = new Map(fields.map((f) => [f.name, f]));
  const values: Record<string, FieldValue> = {};
  const issues: ValueIssue[] = [];
  for (const [name, raw] of Object.entries(input)) {
    const f = byName.get(name);
    if (!f) {
      issues.push({ path: `${prefix}.${name}`, message: 'is not a field of this form' });
      continue;
    }
    if (isEmpty(raw)) continue;
    const c = checkValue(f, raw, opts.mode);
    if ('error' in c) issues.push({ path: `${prefix}.${name}`, message: c.error });
    else values[name] = c.value;
  }
  if (opts.requireAll) issues.push(...requiredIssues(fields, { ...(opts.previous ?? {}), ...values }, issues, prefix));
  return { values, issues };
}

/**
 * `is required` issues for the required fields among `fields` that have no answer in `merged`
 * (a required checkbox must be true); fields that already have an issue are skipped.
 */
export function requiredIssues(
  fields: FormField[],
  merged: Record<string, unknown>,
  existing: ValueIssue[],
  prefix = 'fields',
): ValueIssue[] {
  const out: ValueIssue[] = [];
  for (const f of fields) {
    if (!f.required || existing.some((i) => i.path === `${prefix}.${f.name}`)) continue;
    const v = merged[f.name];
    if (isEmpty(v) || (f.type === 'checkbox' && v !== true)) out.push({ path: `${prefix}.${f.name}`, message: 'is required' });
  }
  return out;
}

/** A field name derived from a label: lowercase words joined by `_`. */
export function nameFromLabel(label: string): string {
  const base = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  return /^[a-z]/.test(base) ? base : `field_${base}`.replace(/_+$/, '');
}

/** The first email-typed field's value, if any (it creates or updates the contact). */
export function contactEmail(fields: FormField[], values: Record<string, FieldValue>): string | null {
  for (const f of fields) {
    if (f.type === 'email' && typeof values[f.name] === 'string') return values[f.name] as string;
  }
  return null;
}
