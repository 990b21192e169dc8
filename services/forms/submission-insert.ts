import type { Executor } from '../../db/knex';
import type { FieldValue } from '../../domain/form-fields';
import { contactUpsertSql, type ContactInput } from '../contact-rows/upsert';
import { noWebhookFanOutSql, type EventType } from '../events/record';
import { submissionPayload } from './events';
import type { FormRow } from './forms';
import type { SubmissionMetadata } from './tracking';
import type { RoutingRecord } from '../../domain/routing';

export interface NewSubmission {
  status: 'completed' | 'partial';
  qualified: boolean;
  fields: Record<string, FieldValue>;
  metadata: SubmissionMetadata;
  contact: ContactInput | null;
  /** Completed quiz submissions. */
  score?: { score: number; max: number } | null;
  /** Where a completed submission was routed (services/forms/routing.ts). */
  routing?: RoutingRecord | null;
}

export interface InsertedSubmission {
  id: string;
  fields: Record<string, FieldValue>;
  metadata: SubmissionMetadata;
  submitted_at: Date;
  qualified: boolean;
  score: number | null;
  max_score: number | null;
  routing: RoutingRecord | null;
}

/** The ISO string JS's toISOString() gives, computed in SQL (submitted_at has millisecond precision). */
const ISO = `to_char(s.submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface InsertSubmissionInput {
  form: FormRow;
  row: NewSubmission;
  events?: EventType[];
}

/**
 * One statement that writes a new submission: the contact upsert, the submission row and, when
 * `events` is given, the event rows with the spec's payload (submission id and submitted_at filled
 * in by SQL). Nothing is written unless the form is still published; with events, nothing is
 * written either unless the team has no active webhook subscription (see noWebhookFanOutSql).
 * Returns null when nothing was written.
 */
export async function insertSubmission(trx: Executor, { form, row, events }: InsertSubmissionInput): Promise<InsertedSubmission | null> {
  const guard = events?.length ? noWebhookFanOutSql(form.team_id) : null;
  const ctes: string[] = [`ok AS (SELECT 1 FROM forms WHERE id = ? AND status = 'published'${guard ? ` AND ${guard.sql}` : ''})`];
  const bindings: unknown[] = [form.id, ...(guard?.bindings ?? [])];
  if (row.contact) {
    const upsert = contactUpsertSql(form.team_id, row.contact, 'ok');
    ctes.push(`c AS (${upsert.sql})`);
    bindings.push(...upsert.bindings);
  }
  ctes.push(`s AS (INSERT INTO submissions (team_id, form_id, status, qualified, fields, metadata, score, max_score, routing, contact_id)
    SELECT ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::float8, ?::float8, ?::jsonb, ${row.contact ? '(SELECT id FROM c)' : 'NULL::uuid'} FROM ok
    RETURNING id, submitted_at)`);
  const score = row.score?.score ?? null;
  const max = row.score?.max ?? null;
  const routing = row.routing ?? null;
  bindings.push(
    form.team_id,
    form.id,
    row.status,
    row.qualified,
    JSON.stringify(row.fields),
    JSON.stringify(row.metadata),
    score,
    max,
    routing ? JSON.stringify(routing) : null,
  );
  if (guard && events) {
    const placeholder = {
      id: '',
      fields: row.fields,
      metadata: row.metadata as Record<string, unknown>,
      submitted_at: new Date(0),
      score,
      max_score: max,
      routing,
    };
    const list = events.map((type) => ({ type, payload: submissionPayload(type, form, placeholder) }));
    ctes.push(`e AS (INSERT INTO events (team_id, type, form_id, payload)
      SELECT ?, ev.type, ?, jsonb_set(jsonb_set(ev.payload, '{data,submission_id}', to_jsonb(s.id)), '{data,submitted_at}', to_jsonb(${ISO}))
        FROM s, jsonb_to_recordset(?::jsonb) AS ev(type text, payload jsonb))`);
    bindings.push(form.team_id, form.id, JSON.stringify(list));
  }
  const r = await trx.raw(`WITH ${ctes.join(',\n')} SELECT id, submitted_at FROM s`, bindings as never);
  const inserted = r.rows[0] as { id: string; submitted_at: Date } | undefined;
  if (!inserted) return null;
  return {
    id: inserted.id,
    submitted_at: inserted.submitted_at,
    fields: row.fields,
    metadata: row.metadata,
    qualified: row.qualified,
    score,
    max_score: max,
    routing,
  };
}
