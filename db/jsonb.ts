/**
 * The value to write into a jsonb column. pg sends a JS array as a Postgres array, so jsonb needs
 * the JSON text; typing the text as `T` lets the column's declared type (db/tables.ts) check the
 * value being written. Reads come back parsed, as `T`.
 */
export function jsonb<T>(value: T): T {
  return JSON.stringify(value) as unknown as T;
}
