import { z } from 'zod';
import { ErrorDetail, validationFailed } from './errors';

/** zod issues → `[{path, message}]`, paths prefixed with the request part (body, query, params). */
export function issuesToDetails(error: z.ZodError, prefix: string): ErrorDetail[] {
  return error.issues.map((i) => ({
    path: [prefix, ...i.path.map(String)].filter(Boolean).join('.'),
    message: i.message,
  }));
}

const choosers = new WeakMap<z.ZodType, (raw: Record<string, unknown>) => z.ZodType>();

/**
 * A union of request shapes (e.g. the two variants of a calendar endpoint) whose variant is chosen
 * from the raw input, such as by which keys it carries. The OpenAPI document shows a real union
 * (oneOf); validation parses the chosen variant only, so error details name that variant's fields
 * instead of zod's "no union member matched".
 */
export function chosenUnion<const T extends readonly [z.ZodType, z.ZodType, ...z.ZodType[]]>(
  options: T,
  choose: (raw: Record<string, unknown>) => T[number],
): z.ZodUnion<T> {
  const union = z.union(options);
  choosers.set(union, choose);
  return union;
}

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, prefix: string): z.infer<S> {
  const choose = choosers.get(schema);
  const raw = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const r = (choose ? choose(raw) : schema).safeParse(value);
  if (!r.success) throw validationFailed(issuesToDetails(r.error, prefix));
  return r.data as z.infer<S>;
}

/** Shared field schemas. */
export const zUuid = z.uuid({ error: 'must be a UUID' });
export const zIdParams = z.strictObject({ id: zUuid });
export const zTimestamp = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp' });
export const zIanaZone = z.string().refine(
  (tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return tz.length > 0 && tz.length < 64;
    } catch {
      return false;
    }
  },
  { error: 'must be an IANA time zone name' },
);
/** A text value: no NUL or other C0 control characters except tab/newline/carriage return. */
export const zText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(s), { error: 'contains control characters' });
