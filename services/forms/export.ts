import type { Readable } from 'node:stream';
import { cursorStream } from '../../db/cursor';
import type { ServiceDeps } from '../deps';
import type { FormField } from '../../domain/form-fields';
import { csvCell, CSV_BOM } from '../../domain/csv';
import { getForm, type FormRow } from './forms';
import { TRACKING_KEYS } from './schemas';

export interface ExportOptions {
  format: 'csv' | 'ndjson';
  bom: boolean;
  since?: string;
  until?: string;
  status?: 'completed' | 'partial';
}

/** Metadata columns after the fields; quiz forms add score and max_score. Then the tracking values. */
const META = ['submission_id', 'status', 'submitted_at', 'qualified', 'contact_id'] as const;
const TRACKING = ['referrer', 'user_agent', 'device_type', 'country', ...TRACKING_KEYS] as const;
const ISO = `to_char(s.submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** Numbers from numeric fields are written as they are (a negative number is not a formula). */
const NUMERIC = new Set(['number', 'rating']);

function fieldSql(f: FormField, i: number): { sql: string; binding: string } {
  // multi_select answers are JSON arrays: joined with "; " for a spreadsheet cell.
  if (f.type === 'multi_select')
    return { sql: `array_to_string(ARRAY(SELECT jsonb_array_elements_text(s.fields->?)), '; ') AS f${i}`, binding: f.name };
  return { sql: `s.fields->>? AS f${i}`, binding: f.name };
}

interface Plan {
  sql: string;
  bindings: unknown[];
  header: string[];
  /** Per column: neutralise formulas (text) or not (numbers, ids, timestamps). */
  text: boolean[];
}

function where(formId: string, o: ExportOptions): { sql: string; bindings: unknown[] } {
  const parts = ['s.form_id = ?'];
  const bindings: unknown[] = [formId];
  if (o.status) {
    parts.push('s.status = ?');
    bindings.push(o.status);
  }
  if (o.since) {
    parts.push('s.submitted_at > ?');
    bindings.push(o.since);
  }
  if (o.until) {
    parts.push('s.submitted_at < ?');
    bindings.push(o.until);
  }
  return { sql: parts.join(' AND '), bindings };
}

/** The CSV query: one text column per cell, oldest first (served backwards by the list index). */
export function csvPlan(form: FormRow, o: ExportOptions): Plan {
  const quiz = form.type === 'quiz';
  const fields = form.fields.map(fieldSql);
  const meta = [
    's.id::text',
    's.status',
    ISO,
    's.qualified::text',
    's.contact_id::text',
    ...(quiz ? ['s.score::text', 's.max_score::text'] : []),
  ];
  const tracking = TRACKING.map(() => 's.metadata->>?');
  const w = where(form.id, o);
  return {
    sql: `SELECT ${[...fields.map((f) => f.sql), ...meta, ...tracking].join(', ')} FROM submissions s WHERE ${w.sql} ORDER BY s.submitted_at, s.id`,
    bindings: [...fields.map((f) => f.binding), ...TRACKING, ...w.bindings],
    header: [...form.fields.map((f) => f.name), ...META, ...(quiz ? ['score', 'max_score'] : []), ...TRACKING],
    text: [
      ...form.fields.map((f) => !NUMERIC.has(f.type)),
      ...META.map(() => false),
      ...(quiz ? [false, false] : []),
      ...TRACKING.map(() => true),
    ],
  };
}

/**
 * The export's query: each row arrives as one finished CSV line built by Postgres from the columns
 * of `csvPlan` (computed once in a subquery that `OFFSET 0` keeps from being flattened). Text cells
 * are always quoted, their quotes doubled, and a leading `= + - @ TAB CR` gets a `'` (domain/csv.ts
 * states the same rules for the header); other cells are written as they are. One column per row
 * keeps the driver's per-row work small: this is what makes the export keep pace with COPY.
 */
function csvLinePlan(form: FormRow, o: ExportOptions): Plan {
  const p = csvPlan(form, o);
  const cell = (i: number) =>
    p.text[i]
      ? `coalesce('"' || replace(CASE WHEN left(v.c${i}, 1) IN ('=', '+', '-', '@', E'\\t', E'\\r') THEN '''' || v.c${i} ELSE v.c${i} END, '"', '""') || '"', '')`
      : `coalesce(v.c${i}, '')`;
  const inner = p.sql.replace(/^SELECT (.*) FROM submissions s/s, (_m, cols: string) => `SELECT ${renameColumns(cols)} FROM submissions s`);
  return { ...p, sql: `SELECT concat_ws(',', ${p.header.map((_h, i) => cell(i)).join(', ')}) FROM (${inner} OFFSET 0) v` };
}

/** `a AS f0, b, c` → `a AS c0, b AS c1, c AS c2` (top-level commas only). */
function renameColumns(cols: string): string {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of cols) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out.map((c, i) => `${c.replace(/ AS f\d+$/, '')} AS c${i}`).join(', ');
}

/** The NDJSON query: one JSON object per row, built by Postgres. */
function ndjsonPlan(form: FormRow, o: ExportOptions): Plan {
  const w = where(form.id, o);
  const obj = `json_build_object('id', s.id, 'status', s.status, 'submitted_at', ${ISO}, 'qualified', s.qualified, 'contact_id', s.contact_id,
    'fields', s.fields, 'metadata', s.metadata${form.type === 'quiz' ? `, 'score', s.score, 'max_score', s.max_score` : ''})::text`;
  return {
    sql: `SELECT ${obj} FROM submissions s WHERE ${w.sql} ORDER BY s.submitted_at, s.id`,
    bindings: w.bindings,
    header: [],
    text: [],
  };
}

export interface ExportStream {
  filename: string;
  contentType: string;
  stream: Readable;
}

export interface ExportSubmissionsInput {
  teamId: string;
  formId: string;
  options: ExportOptions;
}

/**
 * A form's submissions as CSV or NDJSON, streamed from a Postgres cursor (db/cursor.ts): rows arrive
 * in batches and the socket's backpressure pauses the cursor, so memory stays
 * flat whatever the number of rows.
 */
export async function exportSubmissions(deps: Pick<ServiceDeps, 'db'>, input: ExportSubmissionsInput): Promise<ExportStream> {
  const { db } = deps;
  const { teamId, formId, options: o } = input;
  const form = await getForm(deps, { teamId, id: formId });
  const plan = o.format === 'csv' ? csvLinePlan(form, o) : ndjsonPlan(form, o);
  const head = o.format === 'csv' ? (o.bom ? CSV_BOM : '') + plan.header.map((h) => csvCell(h, true)).join(',') + '\r\n' : '';
  const eol = o.format === 'csv' ? '\r\n' : '\n';
  // Each row is one finished line (built by Postgres): a batch becomes one chunk.
  const stream = await cursorStream<[string]>(db, plan.sql, plan.bindings, {
    batch: 2000,
    rowMode: 'array',
    head,
    format: (rows) => rows.map((r) => r[0]).join(eol) + eol,
  });
  const ext = o.format === 'csv' ? 'csv' : 'ndjson';
  return {
    filename: `${form.slug || form.id}-submissions.${ext}`,
    contentType: o.format === 'csv' ? 'text/csv; charset=utf-8; header=present' : 'application/x-ndjson; charset=utf-8',
    stream,
  };
}
