import { logger } from '../../core/logger';
import type { WorkerDeps } from '../deps';
import { LIVE_FIELDS } from './apps';
import { reviewReminderMail, reviewStatusMail } from '../mail/render/oauth-review';

type Stage = 'submission' | 'review' | 'security_verification' | 'changes_requested' | 'approved' | 'rejected';

export const STAGE_LABELS: Record<Stage, string> = {
  submission: 'Submission received',
  review: 'In review (configuration, permissions and user experience)',
  security_verification: 'Security verification (OAuth implementation and data handling)',
  changes_requested: 'Changes requested',
  approved: 'Approved and listed',
  rejected: 'Rejected',
};

const STATUS_BY_STAGE: Record<Stage, string> = {
  submission: 'in_review',
  review: 'in_review',
  security_verification: 'in_review',
  changes_requested: 'changes_requested',
  approved: 'approved',
  rejected: 'rejected',
};

export interface StageInput {
  appId: string;
  teamId: string;
  round: number;
  stage: Stage;
}

/** The app-review workflow's steps: record each stage, email the developer, remind the staff. */

async function developerEmail(db: WorkerDeps['db'], appId: string): Promise<{ email: string; name: string } | null> {
  const row = await db('apps as a')
    .leftJoin('users as u', 'u.id', 'a.created_by')
    .where({ 'a.id': appId })
    .first('a.name', 'a.team_id', 'u.email');
  if (!row) return null;
  if (row.email) return { email: row.email, name: row.name };
  const owner = await db('users').where({ team_id: row.team_id }).orderByRaw(`(role = 'owner') desc, created_at asc`).first('email');
  return owner ? { email: owner.email, name: row.name } : null;
}

/** Move the app to `stage` (approval publishes the reviewed version). False when the app or round is gone. */
export async function recordReviewStage(
  deps: Pick<WorkerDeps, 'db'>,
  input: StageInput & { outcome: string | null; notes: string | null; actorUserId: string | null },
): Promise<boolean> {
  const { db } = deps;
  return db.transaction(async (trx) => {
    const app = await trx('apps')
      .where({ id: input.appId, review_round: input.round })
      .forUpdate()
      .first(['id', 'team_id', 'live', ...LIVE_FIELDS]);
    if (!app) return false;
    const update: Record<string, unknown> = { review_stage: input.stage, updated_at: trx.fn.now() };
    if (input.stage === 'approved') {
      update.live = JSON.stringify(Object.fromEntries(LIVE_FIELDS.map((c) => [c, app[c]])));
      update.approved_at = trx.fn.now();
      update.status = 'approved';
    } else {
      // An approved app under re-review stays approved and listed with its approved version.
      update.status = app.live ? 'approved' : STATUS_BY_STAGE[input.stage];
    }
    await trx('apps').where({ id: app.id }).update(update);
    await trx('app_review_events').insert({
      team_id: app.team_id,
      app_id: app.id,
      round: input.round,
      stage: input.stage,
      outcome: input.outcome,
      notes: input.notes,
      actor_user_id: input.actorUserId,
    });
    return true;
  });
}

/** The developer's status email for a stage change. */
export async function sendReviewStatusEmail(deps: WorkerDeps, input: StageInput & { notes: string | null }): Promise<void> {
  const { db, mailer } = deps;
  const to = await developerEmail(db, input.appId);
  if (!to) return;
  const mail = reviewStatusMail({
    appName: to.name,
    appId: input.appId,
    round: input.round,
    stage: input.stage,
    label: STAGE_LABELS[input.stage],
    notes: input.notes,
  });
  await mailer.send({
    to: to.email,
    ...mail,
    headers: { 'X-App-Review-Stage': input.stage, 'X-App-Id': input.appId },
  });
}

/** A review has waited longer than 5 business days: remind every staff user. */
export async function sendReviewReminder(deps: WorkerDeps, input: StageInput & { waitingSinceBusinessDays: number }): Promise<number> {
  const { db, mailer } = deps;
  const staff: Array<{ email: string }> = await db('users').where({ is_staff: true }).select('email');
  const app = await db('apps').where({ id: input.appId }).first('name');
  if (!app) return 0;
  if (staff.length === 0) {
    logger.warn({ appId: input.appId }, 'app review reminder: no staff users to notify');
    return 0;
  }
  await mailer.send({
    to: staff.map((s) => s.email),
    ...reviewReminderMail({
      appName: app.name,
      appId: input.appId,
      label: STAGE_LABELS[input.stage],
      waitingSinceBusinessDays: input.waitingSinceBusinessDays,
    }),
    headers: { 'X-App-Review-Reminder': input.stage, 'X-App-Id': input.appId },
  });
  return staff.length;
}
