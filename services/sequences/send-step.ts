import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Executor } from '../../db/knex';
import { nextSendTime, type SendingWindow } from '../../domain/sending-window';
import type { WorkerDeps } from '../deps';
import { smtpQueueId, tokenAddress } from '../../domain/mail-address';
import { recordSyncBounce, sequenceMessageId, smtpReplyCode } from './sync-bounce';
import { smtpAnswerBlock } from '../../domain/mail-block';
import { advanceAfter, delayMs, nextStep, stepLabel, type NextStep } from './step-plan';
import { renderEmail, renderSms } from '../mail/render/sequences';
import { publicUrl } from '../mail/render/links';

export type SendResult =
  | { outcome: 'wait'; waitMs: number; reason: 'paused' | 'window' }
  | { outcome: 'sent' | 'duplicate' | 'failed' | 'bounced' | 'stopped' | 'step_removed'; next: NextStep };

const PAUSE_RECHECK_MS = 3_600_000;

interface Ctx {
  e: {
    id: string;
    team_id: string;
    sequence_id: string;
    contact_id: string;
    status: string;
    exit_reason: string | null;
    last_sent_position: number | null;
  };
  seq: {
    status: string;
    name: string;
    send_from_email: string | null;
    send_from_number: string | null;
    sending_window: SendingWindow | null;
  };
  contact:
    | {
        email: string | null;
        phone: string | null;
        first_name: string | null;
        last_name: string | null;
        timezone: string | null;
        custom_fields: Record<string, unknown>;
        unsubscribed_email: boolean;
        unsubscribed_sms: boolean;
        email_undeliverable_at: Date | null;
        deleted_at: Date | null;
      }
    | undefined;
  step:
    | {
        id: string;
        position: number;
        channel: 'email' | 'sms';
        subject: string | null;
        body: string;
        deleted_at: Date | null;
        delay_value: number;
        delay_unit: string;
      }
    | undefined;
}

/**
 * The enrollment, its sequence, contact and step in one round trip: the step `stepId`, or (null)
 * the first live step after the last one sent, with its delay (as `nextStep` finds it).
 */
async function load(db: Executor, enrollmentId: string, stepId: string | null): Promise<Ctx | null> {
  const q = db('sequence_enrollments as e')
    .join('sequences as s', 's.id', 'e.sequence_id')
    .leftJoin('contacts as c', 'c.id', 'e.contact_id');
  if (stepId !== null)
    q.leftJoin('sequence_steps as st', (j) => j.on('st.sequence_id', 'e.sequence_id').andOn('st.id', db.raw('?', [stepId])));
  else
    q.joinRaw(
      `LEFT JOIN LATERAL (SELECT * FROM sequence_steps s2 WHERE s2.sequence_id = e.sequence_id AND s2.deleted_at IS NULL
        AND s2.position > COALESCE(e.last_sent_position, -1) ORDER BY s2.position LIMIT 1) st ON true`,
    );
  const r = await q
    .where('e.id', enrollmentId)
    .first(
      'e.id',
      'e.team_id',
      'e.sequence_id',
      'e.contact_id',
      'e.status',
      'e.exit_reason',
      'e.last_sent_position',
      's.status as seq_status',
      's.name as seq_name',
      's.send_from_email',
      's.send_from_number',
      's.sending_window',
      'c.id as c_id',
      'c.email',
      'c.phone',
      'c.first_name',
      'c.last_name',
      'c.timezone',
      'c.custom_fields',
      'c.unsubscribed_email',
      'c.unsubscribed_sms',
      'c.email_undeliverable_at',
      'c.deleted_at as c_deleted_at',
      'st.id as step_id',
      'st.position',
      'st.channel',
      'st.subject',
      'st.body',
      'st.deleted_at as step_deleted_at',
      'st.delay_value',
      'st.delay_unit',
    );
  if (!r) return null;
  return {
    e: {
      id: r.id,
      team_id: r.team_id,
      sequence_id: r.sequence_id,
      contact_id: r.contact_id,
      status: r.status,
      exit_reason: r.exit_reason,
      last_sent_position: r.last_sent_position,
    },
    seq: {
      status: r.seq_status,
      name: r.seq_name,
      send_from_email: r.send_from_email,
      send_from_number: r.send_from_number,
      sending_window: r.sending_window,
    },
    contact: r.c_id
      ? {
          email: r.email,
          phone: r.phone,
          first_name: r.first_name,
          last_name: r.last_name,
          timezone: r.timezone,
          custom_fields: r.custom_fields ?? {},
          unsubscribed_email: r.unsubscribed_email,
          unsubscribed_sms: r.unsubscribed_sms,
          email_undeliverable_at: r.email_undeliverable_at,
          deleted_at: r.c_deleted_at,
        }
      : undefined,
    step: r.step_id
      ? {
          id: r.step_id,
          position: r.position,
          channel: r.channel,
          subject: r.subject,
          body: r.body,
          deleted_at: r.step_deleted_at,
          delay_value: r.delay_value,
          delay_unit: r.delay_unit,
        }
      : undefined,
  };
}

async function exitNow(db: Executor, enrollmentId: string, reason: string): Promise<SendResult> {
  await db('sequence_enrollments')
    .where({ id: enrollmentId, status: 'active' })
    .update({ status: 'exited', exit_reason: reason, ended_at: db.fn.now(), updated_at: db.fn.now() });
  return { outcome: 'stopped', next: await nextStep(db, enrollmentId) };
}

/** Errors after which the provider surely did not accept the message: release the claim and retry. */
function notAccepted(err: unknown): boolean {
  const e = err as { code?: string; responseCode?: number; status?: number };
  if (['ECONNECTION', 'EDNS', 'EAUTH', 'ECONNREFUSED', 'ENOTFOUND', 'EENVELOPE'].includes(e.code ?? '')) return true;
  if (typeof e.responseCode === 'number' && e.responseCode >= 400 && e.responseCode < 500) return true;
  return typeof e.status === 'number' && (e.status === 429 || e.status >= 500);
}

/** Errors that will never succeed: the message is marked failed and the sequence moves on. */
function permanent(err: unknown): boolean {
  const e = err as { responseCode?: number; status?: number };
  return (
    (typeof e.responseCode === 'number' && e.responseCode >= 500) ||
    (typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.status !== 429)
  );
}

/** How long a re-run waits for an earlier execution that is still sending to record its outcome. */
const CLAIM_SETTLE_MS = 5_000;

/**
 * The status of an existing claim, waiting up to CLAIM_SETTLE_MS while it is still `claimed`: a
 * re-run after a slow workflow task often overlaps the first execution, which is about to record
 * `sent`; reporting that is truer than `unknown`.
 */
async function settledClaim(db: Executor, enrollmentId: string, stepId: string): Promise<string | undefined> {
  const until = Date.now() + CLAIM_SETTLE_MS;
  for (;;) {
    const row = await db('sequence_sends').where({ enrollment_id: enrollmentId, step_id: stepId }).first('status');
    if (row?.status !== 'claimed' || Date.now() >= until) return row?.status;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * What the running activity tells a send: its attempt (1 the first time; a soft bounce becomes final
 * on the last) and a heartbeat for a slow SMTP exchange. Outside an activity: attempt 1, no heartbeat.
 */
export interface SendRun {
  attempt: number;
  heartbeat(): void;
}
const OUTSIDE_AN_ACTIVITY: SendRun = { attempt: 1, heartbeat: () => undefined };

export interface SendStepInput {
  enrollmentId: string;
  stepId: string;
  now: number;
  run?: SendRun;
}

/** Re-check, claim, render and send one step of an enrollment; then find the step after it. */
export async function sendStep(deps: WorkerDeps, input: SendStepInput): Promise<SendResult> {
  const ctx = await load(deps.db, input.enrollmentId, input.stepId);
  if (!ctx) return { outcome: 'stopped', next: { kind: 'end', status: 'missing', reason: null } };
  return sendLoaded(deps, ctx, input.now, input.run ?? OUTSIDE_AN_ACTIVITY);
}

/** What starting an enrollment found: its first step (or the end), and that step's send when it was due at once. */
export interface StartResult {
  next: NextStep;
  send?: SendResult;
}

/**
 * The first thing an enrollment workflow does: find the step to run (as `nextStep`) and, when it
 * is due at once, send it (as `sendStep`), with one read for both.
 */
export async function startEnrollment(deps: WorkerDeps, input: { enrollmentId: string; now: number; run?: SendRun }): Promise<StartResult> {
  const ctx = await load(deps.db, input.enrollmentId, null);
  if (!ctx) return { next: { kind: 'end', status: 'missing', reason: null } };
  if (ctx.e.status !== 'active') return { next: { kind: 'end', status: ctx.e.status, reason: ctx.e.exit_reason } };
  if (!ctx.step) return { next: await nextStep(deps.db, ctx.e.id) }; // no live step left: completes it
  const next: NextStep = { kind: 'step', stepId: ctx.step.id, delayMs: delayMs(ctx.step), label: stepLabel(ctx.step) };
  if (next.delayMs > 0) return { next };
  return { next, send: await sendLoaded(deps, ctx, input.now, input.run ?? OUTSIDE_AN_ACTIVITY) };
}

async function sendLoaded(deps: WorkerDeps, ctx: Ctx, now: number, run: SendRun): Promise<SendResult> {
  const { db } = deps;
  const { e, seq, contact, step } = ctx;
  if (e.status !== 'active') return { outcome: 'stopped', next: await nextStep(db, e.id) };
  if (!contact || contact.deleted_at) return exitNow(db, e.id, 'contact_deleted');
  if (seq.status === 'archived') return exitNow(db, e.id, 'sequence_archived');
  if (seq.status !== 'active') return { outcome: 'wait', waitMs: PAUSE_RECHECK_MS, reason: 'paused' };
  if (!step || step.deleted_at) return { outcome: 'step_removed', next: await nextStep(db, e.id) };
  if ((step.channel === 'email' && contact.unsubscribed_email) || (step.channel === 'sms' && contact.unsubscribed_sms)) {
    return exitNow(db, e.id, 'unsubscribed');
  }
  // An address that hard-bounced (here or in another sequence) is never mailed again.
  if (step.channel === 'email' && contact.email_undeliverable_at) return exitNow(db, e.id, 'email_bounced');
  const at = nextSendTime(new Date(now), seq.sending_window, contact.timezone);
  if (at.getTime() > now) return { outcome: 'wait', waitMs: at.getTime() - now, reason: 'window' };

  // Render first, so that the claim carries the message's links: one INSERT instead of two writes.
  const token = randomBytes(16).toString('hex'); // lowercase: it travels in VERP addresses
  const mail = step.channel === 'email' && contact.email ? renderEmail(step, contact, deps.config.baseUrl, token) : null;
  // Claim the (enrollment, step) row: whoever inserts it is the only one that may send.
  const claimed = await db('sequence_sends')
    .insert({
      team_id: e.team_id,
      sequence_id: e.sequence_id,
      enrollment_id: e.id,
      step_id: step.id,
      contact_id: e.contact_id,
      position: step.position,
      channel: step.channel,
      token,
      ...(mail ? { links: JSON.stringify(mail.links) } : {}),
    })
    .onConflict(['enrollment_id', 'step_id'])
    .ignore()
    .returning('id');
  // The send's own row update (`record`) goes in the same statement as the advance.
  const advance = async (outcome: 'sent' | 'duplicate' | 'failed' | 'bounced', record?: Knex.QueryBuilder): Promise<SendResult> => ({
    outcome,
    next: await advanceAfter(db, e, step.position, record),
  });
  if (claimed.length === 0) {
    // An earlier execution of this send (a local activity re-run after a slow workflow task, or a
    // retry) claimed it. If it finished, report it as sent; if it died mid-way, its outcome is
    // unknown, and we never send twice.
    const prior = await settledClaim(db, e.id, step.id);
    if (prior === 'sent') return advance('sent');
    return advance(
      'duplicate',
      db('sequence_sends').where({ enrollment_id: e.id, step_id: step.id, status: 'claimed' }).update({ status: 'unknown' }),
    );
  }
  const sendId = claimed[0].id as string;
  run.heartbeat();
  const fail = (error: string) =>
    advance(
      'failed',
      db('sequence_sends')
        .where({ id: sendId })
        .update({ status: 'failed', failed_at: db.fn.now(), error: error.slice(0, 500) }),
    );
  if (step.channel === 'email' && !contact.email) return fail('the contact has no email address');
  if (step.channel === 'sms' && (!contact.phone || !seq.send_from_number)) return fail('no phone number or send-from number');
  const messageId = sequenceMessageId(e.id, step.id, deps.config.MAIL_REPLY_DOMAIN);
  let recorded: Knex.QueryBuilder;
  try {
    if (step.channel === 'email') {
      const m = mail!;
      const info = await deps.mailer.send({
        ...(seq.send_from_email ? { from: seq.send_from_email } : {}),
        to: contact.email!,
        replyTo: tokenAddress('reply', token, deps.config.MAIL_REPLY_DOMAIN),
        envelope: { from: tokenAddress('bounce', token, deps.config.MAIL_BOUNCE_DOMAIN), to: contact.email! },
        subject: m.subject,
        html: m.html,
        text: m.text,
        messageId,
        date: new Date(now),
        headers: {
          'List-Unsubscribe': `<${publicUrl(deps.config, `/u/${token}`)}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
      // Accepted is not delivered: delivery is decided by the bounce window or a provider event.
      recorded = db('sequence_sends')
        .where({ id: sendId })
        .update({
          status: 'sent',
          sent_at: new Date(now),
          message_id: messageId,
          provider_id: info.messageId,
          smtp_queue_id: smtpQueueId(info.response), // SendGrid events name it in sg_message_id
          ...(info.accepted ? { accepted_at: db.fn.now() } : {}),
        });
    } else {
      const r = await deps.sms.send({
        from: seq.send_from_number!,
        to: contact.phone!,
        body: renderSms(step, contact),
        statusCallback: `${deps.config.baseUrl}/api/hooks/twilio/status`,
      });
      recorded = db('sequence_sends')
        .where({ id: sendId })
        .update({ status: 'sent', sent_at: new Date(now), provider_id: r.sid });
    }
  } catch (err) {
    const code = smtpReplyCode(err);
    if (step.channel === 'email' && code !== null) {
      const detail = String((err as { response?: string }).response ?? (err as Error).message ?? err);
      const bounce = { teamId: e.team_id, sendId, contactId: e.contact_id, enrollmentId: e.id, code, detail, messageId };
      // A 5xx that refuses us (reputation, authentication, content, policy), not the address: a block.
      const block = code >= 500 ? smtpAnswerBlock(detail) : null;
      if (block) {
        await recordSyncBounce(db, { ...bounce, type: 'block', block });
        return advance('bounced');
      }
      if (code >= 500) {
        await recordSyncBounce(db, { ...bounce, type: 'hard' });
        return { outcome: 'bounced', next: await nextStep(db, e.id) };
      }
      if (code >= 400 && run.attempt >= deps.config.MAIL_SOFT_BOUNCE_ATTEMPTS) {
        await recordSyncBounce(db, { ...bounce, type: 'soft' });
        return advance('bounced');
      }
    }
    if (notAccepted(err)) {
      await db('sequence_sends').where({ id: sendId }).delete();
      throw err; // nothing went out: Temporal retries the activity
    }
    if (permanent(err)) return fail(String((err as Error).message ?? err));
    return advance(
      'duplicate',
      db('sequence_sends')
        .where({ id: sendId })
        .update({ status: 'unknown', error: String((err as Error).message ?? err).slice(0, 500) }),
    );
  }
  return advance('sent', recorded);
}
