import type { ContactsRow } from '../../db/tables';
import type { Executor } from '../../db/knex';
import type { SkipReason } from '../../domain/exit-reasons';
import { normaliseAddress, suppressedAddresses, suppressionKey } from '../mail/suppression';
import { transactionWithOutbox } from '../../temporal/outbox';
import { upsertContactByEmail } from '../contact-rows/upsert';
import { ApiError } from '../../core/errors';
import { paginate, type Page } from '../pagination';
import { findSequence, liveSteps } from './authoring';
import { exitEnrollments } from '../sequence-exits/exits';
import { contactsWithBookedMeeting } from './meetings';
import { presentEnrollment, type EnrollmentRow, type SequenceRow } from './present';
import type { EnrollBody } from './schemas';
import type { ServiceDeps } from '../deps';
import { emailKeyer } from '../operators/email-key';
import { enrollmentStart } from './workflow-metadata';

type ContactRow = Pick<ContactsRow, 'id' | 'email' | 'phone' | 'unsubscribed_email' | 'unsubscribed_sms' | 'email_undeliverable_at'>;

async function resolveContactIds(trx: Executor, teamId: string, body: EnrollBody): Promise<string[]> {
  if (body.email) {
    const { id } = await upsertContactByEmail(trx, {
      teamId,
      contact: {
        email: body.email,
        first_name: body.first_name,
        last_name: body.last_name,
        phone: body.phone,
        timezone: body.timezone,
      },
    });
    return [id];
  }
  return [...new Set(body.contact_ids ?? [body.contact_id!])];
}

async function smsProviderConfigured(trx: Executor, teamId: string): Promise<boolean> {
  const team = await trx('teams').where({ id: teamId }).first('settings');
  const provider = (team?.settings as Record<string, unknown> | undefined)?.sms_provider;
  return typeof provider === 'string' && provider.length > 0;
}

/** The first entry check a contact fails, in a fixed order; null when it may be enrolled. */
function skipReason(
  seq: SequenceRow,
  c: ContactRow,
  ctx: { channels: Set<string>; active: Set<string>; meetings: Set<string>; smsReady: boolean; suppressed: Map<string, Set<string>> },
): SkipReason | null {
  if (seq.status !== 'active') return 'sequence_not_active';
  if (ctx.active.has(c.id)) return 'already_enrolled';
  // The suppression list (services/mail/suppression.ts) outlives an erased contact with the same address.
  const listed = (c.email && ctx.suppressed.get(normaliseAddress(c.email))) || undefined;
  const email = ctx.channels.has('email');
  if ((email && (c.unsubscribed_email || listed?.has('unsubscribed'))) || (ctx.channels.has('sms') && c.unsubscribed_sms))
    return 'unsubscribed';
  if (email && !c.email) return 'missing_email';
  if (email && (c.email_undeliverable_at || listed?.has('email_undeliverable'))) return 'email_undeliverable';
  if (ctx.channels.has('sms') && !c.phone) return 'missing_phone';
  if (ctx.channels.has('sms') && !ctx.smsReady) return 'sms_not_configured';
  if (seq.skip_if_meeting_booked && ctx.meetings.has(c.id)) return 'meeting_already_booked';
  return null;
}

export interface EnrollInput {
  teamId: string;
  sequenceId: string;
  values: EnrollBody;
}

/**
 * Enroll one contact, up to 1,000 contacts, or a contact created from an email. Every contact
 * gets an enrollment: `active` (its workflow starts through the outbox) or `skipped` with the
 * reason. Enrolling exits the contacts from sequences that list this one in
 * `exit_on_added_to_sequence_ids`.
 */
export async function enroll(deps: Pick<ServiceDeps, 'db' | 'outbox' | 'config'>, input: EnrollInput) {
  const { db, outbox } = deps;
  const { teamId, sequenceId, values: body } = input;
  const emailKey = await emailKeyer(deps); // read once per process, before the transaction
  return transactionWithOutbox(db, outbox, async (trx, enqueue) => {
    const seq = await findSequence(trx, { teamId, id: sequenceId, lock: true });
    if (seq.status === 'archived') throw new ApiError(409, 'invalid_transition', 'Contacts cannot be enrolled in an archived sequence');
    const ids = await resolveContactIds(trx, teamId, body);
    const contacts: ContactRow[] = await trx('contacts')
      .where('team_id', teamId)
      .whereIn('id', ids)
      .whereNull('deleted_at')
      .select('id', 'email', 'phone', 'unsubscribed_email', 'unsubscribed_sms', 'email_undeliverable_at');
    const byId = new Map(contacts.map((c) => [c.id, c]));
    const missing = ids.map((id, i) => ({ id, i })).filter(({ id }) => !byId.has(id));
    if (missing.length) {
      const field = body.contact_ids ? 'body.contact_ids' : 'body.contact_id';
      throw new ApiError(
        404,
        'not_found',
        'Contact not found',
        missing.slice(0, 50).map(({ i }) => ({ path: body.contact_ids ? `${field}.${i}` : field, message: 'no such contact' })),
      );
    }
    const steps = await liveSteps(trx, seq.id);
    const channels = new Set(steps.map((s) => s.channel));
    const activeRows: Array<{ contact_id: string }> = await trx('sequence_enrollments')
      .where({ sequence_id: seq.id, status: 'active' })
      .whereIn('contact_id', ids)
      .select('contact_id');
    const ctx = {
      channels,
      active: new Set(activeRows.map((r) => r.contact_id)),
      meetings: seq.skip_if_meeting_booked ? await contactsWithBookedMeeting(trx, { teamId, contactIds: ids }) : new Set<string>(),
      smsReady: !!seq.send_from_number && (!channels.has('sms') || (await smsProviderConfigured(trx, teamId))),
      suppressed: channels.has('email')
        ? await suppressedAddresses(trx, {
            teamId,
            key: suppressionKey(deps.config),
            emails: contacts.flatMap((c) => (c.email ? [c.email] : [])),
          })
        : new Map<string, Set<string>>(),
    };
    const inserts = ids.map((id) => {
      const reason = skipReason(seq, byId.get(id)!, ctx);
      return {
        team_id: teamId,
        sequence_id: seq.id,
        contact_id: id,
        status: reason ? 'skipped' : 'active',
        skip_reason: reason,
        ...(reason ? { ended_at: trx.fn.now() } : {}),
      };
    });
    const rows: EnrollmentRow[] = [];
    for (let i = 0; i < inserts.length; i += 500) {
      rows.push(
        ...(await trx('sequence_enrollments')
          .insert(inserts.slice(i, i + 500))
          .returning('*')),
      );
    }
    const active = rows.filter((r) => r.status === 'active');
    if (active.length) {
      await exitEnrollments(trx, enqueue, {
        teamId,
        contactIds: active.map((r) => r.contact_id),
        sequenceWhere: (q) => q.whereRaw('?::uuid = ANY(exit_on_added_to_sequence_ids)', [seq.id]),
        reason: 'added_to_other_sequence',
        detail: { sequence_id: seq.id, sequence_name: seq.name },
      });
      await enqueue(
        active.map((e) =>
          enrollmentStart({ seq, enrollment: e, email: byId.get(e.contact_id)?.email ?? null, steps: steps.length, emailKey }),
        ),
      );
    }
    const order = new Map(ids.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.contact_id)! - order.get(b.contact_id)!);
    return rows.map(presentEnrollment);
  });
}

export interface UnenrollInput {
  teamId: string;
  sequenceId: string;
  enrollmentId: string;
}

export async function unenroll(deps: Pick<ServiceDeps, 'db' | 'outbox'>, input: UnenrollInput): Promise<void> {
  const { db, outbox } = deps;
  const { teamId, sequenceId, enrollmentId } = input;
  await transactionWithOutbox(db, outbox, async (trx, enqueue) => {
    await findSequence(trx, { teamId, id: sequenceId });
    const e = await trx('sequence_enrollments').where({ team_id: teamId, sequence_id: sequenceId, id: enrollmentId }).first('id');
    if (!e) throw new ApiError(404, 'not_found', 'Enrollment not found');
    await exitEnrollments(trx, enqueue, { teamId, enrollmentIds: [enrollmentId], reason: 'unenrolled' });
  });
}

export interface ListEnrollmentsInput {
  teamId: string;
  sequenceId: string;
  page: Page;
  status?: string;
  contactId?: string;
}

export async function listEnrollments(deps: Pick<ServiceDeps, 'db'>, input: ListEnrollmentsInput) {
  const { db } = deps;
  const { teamId, sequenceId, page, status, contactId } = input;
  await findSequence(db, { teamId, id: sequenceId });
  const q = db('sequence_enrollments').where({ team_id: teamId, sequence_id: sequenceId });
  if (status) q.where('status', status);
  if (contactId) q.where('contact_id', contactId);
  return paginate(
    q,
    page,
    [
      { column: 'enrolled_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ],
    presentEnrollment,
  );
}
