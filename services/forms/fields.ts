import { randomUUID } from 'node:crypto';
import { CHOICE_TYPES, nameFromLabel, type FieldOption, type FormField } from '../../domain/form-fields';
import type { FieldInput } from './schemas';

/**
 * Turn the API's field list into stored fields: positions follow the array order (0…n-1), names
 * default to the label (`_2`, `_3`… on a clash), ids are kept when the client sends them back or
 * when a field of the same name already existed.
 */
export function normalizeFields(input: FieldInput[], existing: FormField[] = []): FormField[] {
  const explicit = new Set(input.map((f) => f.name).filter((n): n is string => !!n));
  const used = new Set<string>();
  const byName = new Map(existing.map((f) => [f.name, f]));
  const ids = new Set(existing.map((f) => f.id));
  return input.map((f, position) => {
    let name = f.name;
    if (!name) {
      const base = nameFromLabel(f.label);
      name = base;
      for (let n = 2; explicit.has(name) || used.has(name); n++) name = `${base}_${n}`;
    }
    used.add(name);
    const id = f.id && ids.has(f.id) ? f.id : (byName.get(name)?.id ?? randomUUID());
    const field: FormField = {
      id,
      type: f.type,
      label: f.label,
      name,
      placeholder: f.placeholder ?? null,
      required: f.required ?? false,
      position,
    };
    if (CHOICE_TYPES.includes(f.type)) {
      field.options = (f.options ?? []).map((o): FieldOption => (typeof o === 'string' ? { label: o, value: o } : { ...o }));
    }
    if (f.type === 'number' || f.type === 'rating') {
      field.min = f.type === 'rating' ? 1 : (f.min ?? null);
      field.max = f.type === 'rating' ? (f.max ?? 5) : (f.max ?? null);
    }
    if (f.type === 'hidden') field.default_value = f.default_value ?? null;
    else field.page = f.page ?? 0;
    if (f.logic?.length) field.logic = f.logic;
    return field;
  });
}

export function presentField(f: FormField) {
  return {
    id: f.id,
    type: f.type,
    label: f.label,
    name: f.name,
    placeholder: f.placeholder ?? null,
    required: f.required,
    position: f.position,
    ...(f.options ? { options: f.options } : {}),
    ...(f.type === 'number' || f.type === 'rating' ? { min: f.min ?? null, max: f.max ?? null } : {}),
    ...(f.type === 'hidden' ? { default_value: f.default_value ?? null } : { page: f.page ?? 0 }),
    logic: f.logic ?? [],
  };
}
