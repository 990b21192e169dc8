import type { Executor } from '../../db/knex';
import { isMajorChange, submissionChecklist } from '../../domain/app-checklist';
import { transactionWithOutbox, type Enqueue } from '../../temporal/outbox';
import { decisionSignal, resubmitSignal, reviewWorkflowId, type ReviewStage, type StageOutcome } from '../../workflows/app-review/contract';
import { code, detailsMarkdown, oneLine } from '../operators/metadata';

export type { StageOutcome };
import type { ServiceDeps } from '../deps';
import { ApiError, conflict, notFound, validationFailed } from '../../core/errors';
import { APP_COLUMNS, getAppById, getTeamApp, iconColumns, LIVE_FIELDS, toDraft, type AppInput, type AppRow } from './apps';

export const ACTIVE_STAGES = ['submission', 'review', 'security_verification'];
export const DECISION_STAGES: ReviewStage[] = ['review', 'security_verification'];

function checklistOrThrow(app: AppRow, message: string): void {
  const missing = submissionChecklist(toDraft(app));
  if (missing.length) throw validationFailed(missing, message);
}

async function startRound(trx: Executor, enqueue: Enqueue, app: AppRow): Promise<void> {
  const round = app.review_round + 1;
  await trx('apps')
    .where({ id: app.id })
    .update({
      review_round: round,
      review_stage: 'submission',
      status: app.live ? 'approved' : 'in_review',
      submitted_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    });
  await enqueue({
    workflowType: 'appReviewWorkflow',
    workflowId: reviewWorkflowId(app.id, round),
    args: [{ appId: app.id, teamId: app.team_id, round }],
    searchAttributes: { TeamId: app.team_id, AppId: app.id },
    memo: { appName: app.name, round },
    summary: oneLine(`App review: ${oneLine(app.name, 80)}, round ${round}`),
    details: detailsMarkdown(`Review of the app ${app.name}, round ${round}`, [
      ['App', `${code(app.id)}: \`/api/v1/apps/${app.id}\``],
      ['Team', code(app.team_id)],
      ['Signals', '`decision` {stage, outcome} from staff (`POST /api/staff/apps/{id}/decision`); `resubmit` after changes'],
    ]),
  });
}

const lockApp = async (trx: Executor, teamId: string, id: string): Promise<AppRow> => {
  const row = await trx('apps').where({ id, team_id: teamId }).forUpdate().first<AppRow>(APP_COLUMNS);
  if (!row) throw notFound('App');
  return row;
};

export interface UpdateAppInput {
  teamId: string;
  id: string;
  changes: Partial<AppInput>;
}

/**
 * Partial update. On a listed app, minor fields (descriptions, branding, links) go live at once;
 * a major change (scopes, redirect URIs) starts a new review while the approved version stays listed.
 */
export async function updateApp(deps: Pick<ServiceDeps, 'db' | 'outbox'>, input: UpdateAppInput): Promise<AppRow> {
  const { teamId, id, changes: patch } = input;
  await transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const app = await lockApp(trx, teamId, id);
    const { icon, ...fields } = patch;
    const update: Record<string, unknown> = { ...fields, ...(icon !== undefined ? iconColumns(icon) : {}), updated_at: trx.fn.now() };
    const major = app.live !== null && isMajorChange(app, patch);
    if (app.live) {
      const minor = Object.fromEntries(
        Object.entries(fields).filter(([k]) => LIVE_FIELDS.includes(k as never) && k !== 'scopes' && k !== 'redirect_uris'),
      );
      update.live = JSON.stringify({ ...app.live, ...minor });
    }
    await trx('apps').where({ id }).update(update);
    if (major && !ACTIVE_STAGES.includes(app.review_stage ?? '') && app.review_stage !== 'changes_requested') {
      const next = await lockApp(trx, teamId, id);
      checklistOrThrow(next, 'A major change of an approved app re-enters review, so the app must pass the submission checklist');
      await startRound(trx, enqueue, next);
    }
  });
  return getTeamApp(deps, { teamId, id });
}

/** Submit for review (or resubmit after changes were requested). The 400 lists every missing item. */
export async function submitApp(deps: Pick<ServiceDeps, 'db' | 'outbox'>, { teamId, id }: { teamId: string; id: string }): Promise<AppRow> {
  let resubmitRound: number | null = null;
  await transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const app = await lockApp(trx, teamId, id);
    if (ACTIVE_STAGES.includes(app.review_stage ?? '')) throw conflict('The app is already in review', 'invalid_transition');
    if (app.live && app.review_stage === 'approved') {
      throw conflict(
        'The app is approved; minor updates go live at once and major changes re-enter review by themselves',
        'invalid_transition',
      );
    }
    checklistOrThrow(app, 'The app is not ready for submission');
    if (app.review_stage === 'changes_requested') {
      resubmitRound = app.review_round;
      await trx('apps').where({ id }).update({ submitted_at: trx.fn.now(), updated_at: trx.fn.now() });
    } else {
      await startRound(trx, enqueue, app);
    }
  });
  if (resubmitRound !== null && !(await deps.outbox.signal(reviewWorkflowId(id, resubmitRound), resubmitSignal))) {
    throw new ApiError(503, 'service_unavailable', 'The review process could not be reached; try again');
  }
  return getTeamApp(deps, { teamId, id });
}

export interface DecideInput {
  reviewerId: string;
  appId: string;
  outcome: StageOutcome;
  notes: string | null;
}

/** A staff reviewer's decision on the current stage, sent to the review workflow as a signal. */
export async function decide(deps: Pick<ServiceDeps, 'db' | 'outbox'>, { reviewerId, appId, outcome, notes }: DecideInput) {
  const app = await getAppById(deps.db, appId);
  if (!app) throw notFound('App');
  const stage = app.review_stage as ReviewStage | null;
  if (!stage || !DECISION_STAGES.includes(stage)) {
    throw conflict(
      `The app is not waiting for a reviewer's decision (stage: ${app.review_stage ?? 'not submitted'})`,
      'invalid_transition',
    );
  }
  const sent = await deps.outbox.signal(reviewWorkflowId(app.id, app.review_round), decisionSignal, { stage, outcome, notes, reviewerId });
  if (!sent) throw new ApiError(503, 'service_unavailable', 'The review process could not be reached; try again');
  return { app_id: app.id, round: app.review_round, stage, stage_outcome: outcome, notes };
}
