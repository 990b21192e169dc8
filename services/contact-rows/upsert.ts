import type { Executor } from '../../db/knex';

export interface ContactInput {
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  phone?: string | null;
  timezone?: string | null;
  custom_fields?: Record<string, unknown>;
}

/**
 * The upsert statement itself (`… RETURNING id, created`), so that a caller can put it in a CTE
 * and save a round trip (the public submission does). Same semantics as upsertContactByEmail.
 * With `from` (a CTE name), the row is inserted only when that CTE has a row: `SELECT … FROM <from>`.
 */
export function contactUpsertSql(teamId: string, input: ContactInput, from?: string): { sql: string; bindings: unknown[] } {
  const set: Record<string, string> = {};
  for (const k of ['first_name', 'last_name', 'phone', 'timezone'] as const) {
    const v = input[k];
    if (v !== undefined && v !== null && v !== '') set[k] = v;
  }
  const custom = JSON.stringify(input.custom_fields ?? {});
  return {
    sql: `INSERT INTO contacts (team_id, email, first_name, last_name, phone, timezone, custom_fields)
     ${from ? `SELECT ?, ?, ?, ?, ?, ?, ?::jsonb FROM ${from}` : 'VALUES (?, ?, ?, ?, ?, ?, ?::jsonb)'}
     ON CONFLICT (team_id, email) WHERE deleted_at IS NULL AND email IS NOT NULL
     DO UPDATE SET
       first_name = COALESCE(?, contacts.first_name),
       last_name = COALESCE(?, contacts.last_name),
       phone = COALESCE(?, contacts.phone),
       timezone = COALESCE(?, contacts.timezone),
       custom_fields = contacts.custom_fields || ?::jsonb,
       updated_at = now()
     RETURNING id, (xmax = 0) AS created`,
    bindings: [
      teamId,
      input.email,
      set.first_name ?? null,
      set.last_name ?? null,
      set.phone ?? null,
      set.timezone ?? null,
      custom,
      set.first_name ?? null,
      set.last_name ?? null,
      set.phone ?? null,
      set.timezone ?? null,
      custom,
    ],
  };
}

/**
 * Create the team's contact with this email, or update the existing one (emails compare
 * case-insensitively). Given fields overwrite; absent ones are kept; custom_fields merge by key.
 * Returns the contact id. Used by form submissions, bookings and enrollments.
 */
export async function upsertContactByEmail(
  trx: Executor,
  { teamId, contact: input }: { teamId: string; contact: ContactInput },
): Promise<{ id: string; created: boolean }> {
  const { sql, bindings } = contactUpsertSql(teamId, input);
  const row = await trx.raw(sql, bindings as never);
  return { id: row.rows[0].id, created: row.rows[0].created };
}
