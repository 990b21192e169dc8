import { z } from 'zod';
import { ErrorDetail, validationFailed } from './errors';

/** zod issues → `[{path, message}]`, paths prefixed with the request part (body, query, params). */
export function issuesToDetails(error: z.ZodError, prefix: string): ErrorDetail[] {
  return error.issues.map((i) => ({
    path: [prefix, ...i.path.map(String)].filter(Boolean).join('.'),
    message: i.message,
  }));
}

/** The variant a union made by zVariants picks for an input, to report that variant's errors. */
const variantChoosers = new WeakMap<z.ZodType, (value: unknown) => z.ZodType>();

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, prefix: string): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) {
    const chosen = variantChoosers.get(schema);
    const errors = chosen ? (chosen(value).safeParse(value).error ?? r.error) : r.error;
    throw validationFailed(issuesToDetails(errors, prefix));
  }
  return r.data;
}

/**
 * One of two strict object variants (a zod union: `oneOf` in the OpenAPI document). An input that
 * matches neither gets the errors of the variant `isB` picks from its keys, not zod's union error.
 */
export function zVariants<A extends z.ZodObject, B extends z.ZodObject>(a: A, b: B, isB: (value: object) => boolean, id?: string) {
  const union = z.union([a, b]);
  const schema = id ? union.meta({ id }) : union;
  variantChoosers.set(schema, (v) => (typeof v === 'object' && v !== null && isB(v) ? b : a));
  return schema;
}

/** Shared field schemas. */
export const zUuid = z.uuid({ error: 'must be a UUID' }).meta({ example: '3f0c8a52-7d1e-4b6a-9c2f-5e8d1a7b4c90' });
export const zIdParams = z.strictObject({ id: zUuid });
export const zTimestamp = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 timestamp' })
  .meta({ example: '2030-01-15T15:00:00Z' });
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
