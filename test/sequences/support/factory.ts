import { randomBytes } from 'node:crypto';
import type { Db } from '../../../db/knex';
import { createSequence } from '../../../services/sequences/authoring';
import { zSequenceCreate } from '../../../services/sequences/schemas';

/** A contact row of `teamId`. */
export async function makeContact(
  db: Db,
  teamId: string,
  fields: { email?: string | null; phone?: string | null; first_name?: string; timezone?: string } = {},
): Promise<string> {
  const [row] = await db('contacts')
    .insert({
      team_id: teamId,
      email: fields.email === undefined ? `c-${randomBytes(5).toString('hex')}@example.com` : fields.email,
      phone: fields.phone ?? null,
      first_name: fields.first_name ?? 'Ada',
      timezone: fields.timezone ?? null,
    })
    .returning('id');
  return row.id;
}

/** A sequence through the real service (templates and shape validated). */
export async function makeSequence(db: Db, teamId: string, input: Record<string, unknown> = {}) {
  const body = zSequenceCreate.parse({
    name: 'Welcome',
    status: 'active',
    steps: [{ channel: 'email', delay: { value: 0, unit: 'minutes' }, subject: 'Hi {{first_name}}', body: '<p>Hello {{first_name}}</p>' }],
    ...input,
  });
  return createSequence({ db }, { teamId, values: body });
}

/** An enrollment row (no workflow) for fixtures. */
export async function makeEnrollment(db: Db, teamId: string, sequenceId: string, contactId: string): Promise<string> {
  const [row] = await db('sequence_enrollments')
    .insert({ team_id: teamId, sequence_id: sequenceId, contact_id: contactId, status: 'active' })
    .returning('id');
  return row.id;
}
