/**
 * RFC 4180 CSV cells (pure). A cell holding a comma, a double quote, CR or LF is quoted and its
 * quotes doubled. Formula injection (OWASP "CSV Injection"): a text cell starting with `=`, `+`,
 * `-`, `@`, a tab or CR is prefixed with a single quote, so a spreadsheet shows it as text instead
 * of evaluating it. Numbers, ids and timestamps the service wrote itself are not prefixed.
 */
export const CSV_BOM = '\uFEFF';

const QUOTE = /[",\r\n]/;
const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(value: string | null | undefined, text = true): string {
  if (value === null || value === undefined) return '';
  let v = value;
  if (text && FORMULA.test(v)) v = `'${v}`;
  return QUOTE.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
