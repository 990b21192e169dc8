import {
  condition,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { NextStep, SendResult } from '../../activities/sequences';
import { SA } from '../../temporal/search-attributes';
import { enrollmentStateQuery, exitSignal, resumeSignal, type EnrollmentInput, type EnrollmentResult } from './contract';

// A short read (and at most a `completed` update): a local activity saves a server round trip per enrollment.
// Workflows started before `version: 2` only (their histories replay it).
const { seqNextStep } = proxyLocalActivities<Pick<Activities, 'seqNextStep'>>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', maximumInterval: '1m' },
});
// A send (re-check, claim, render, SMTP/Twilio, record, next step) as a local activity: it runs in
// the workflow task that reaches it, so an enrollment whose step is due costs one workflow task
// and no activity task round trips. At most once still holds: the (enrollment, step) claim in
// Postgres is taken before the hand-off, and a re-run (retry, or replay after a dead worker's
// workflow task times out) finds it and does not send again. `seqStartEnrollment` is the same
// with the first step's lookup in front (version 2): one local activity for an enrollment whose
// first step is due at once.
const { seqSendStep: sendLocal, seqStartEnrollment } = proxyLocalActivities<Pick<Activities, 'seqSendStep' | 'seqStartEnrollment'>>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '1s', maximumInterval: '10m' },
});
// The send as a regular activity: histories recorded before the `local-send` patch replay it.
const { seqSendStep: sendRemote } = proxyActivities<Pick<Activities, 'seqSendStep'>>({
  startToCloseTimeout: '1m',
  heartbeatTimeout: '10s',
  retry: { initialInterval: '1s', maximumInterval: '10m' },
});

/** `2026-12-01T09:00Z`: a due time in current details (workflow time, deterministic). */
const dueAt = (ms: number) => new Date(Date.now() + ms).toISOString().replace(/:\d\d\.\d{3}Z$/, 'Z');
const stepName = (next: { stepId: string; label?: string }) => next.label ?? `step ${next.stepId}`;

/** Patch id: sends run as local activities (see docs/sequences.md, "Workflow changes"). Version 1 only. */
export const LOCAL_SEND_PATCH = 'sequences-local-send';

/**
 * One durable workflow per enrollment (`enrollment-<id>`): each live step after its delay,
 * inside the sending window, held while the sequence is paused, stopped at once by an `exit`
 * signal. Every send re-checks the enrollment, sequence and contact in the database first.
 *
 * Two code versions, chosen by the input (docs/sequences.md, "Workflow changes"): without
 * `version` (started before it existed) the commands are exactly those recorded then: the
 * `sequences-local-send` patch marker, `seqNextStep`, then a send per step; with `version: 2` no
 * patch marker (a marker and a search-attribute upsert per enrollment) and the first step's
 * lookup and send in one local activity.
 */
export async function sequenceEnrollmentWorkflow(input: EnrollmentInput): Promise<EnrollmentResult> {
  let exitReason: string | null = null;
  let resumed = false;
  let phase = 'starting';
  let stepId: string | null = null;
  let sent = 0;
  setHandler(exitSignal, ({ reason }) => {
    exitReason ??= reason;
  });
  setHandler(resumeSignal, () => {
    resumed = true;
  });
  setHandler(enrollmentStateQuery, () => ({ phase, stepId, exitReason }));

  // Current details (docs/operators.md): not a command, so running workflows replay unchanged.
  setCurrentDetails('starting: looking up the first step');
  const finish = (status: string, reason: string | null): EnrollmentResult => {
    upsertSearchAttributes([{ key: SA.EnrollmentStatus, value: status }]);
    phase = status;
    setCurrentDetails(`${status}${reason && reason !== status ? `: ${reason}` : ''} at ${dueAt(0)} (${sent} sent)`);
    return { status, reason, sent };
  };

  let seqSendStep: typeof sendLocal;
  let next: NextStep;
  /** The outcome of the first step's send when `seqStartEnrollment` made it (version 2). */
  let pending: SendResult | undefined;
  if (input.version === 2) {
    seqSendStep = sendLocal;
    // An exit signalled before the first workflow task: nothing to look up.
    if (exitReason !== null) next = { kind: 'end', status: 'exited', reason: exitReason };
    else ({ next, send: pending } = await seqStartEnrollment({ enrollmentId: input.enrollmentId, now: Date.now() }));
  } else {
    seqSendStep = patched(LOCAL_SEND_PATCH) ? sendLocal : sendRemote;
    next = await seqNextStep({ enrollmentId: input.enrollmentId });
  }
  while (next.kind === 'step') {
    stepId = next.stepId;
    phase = 'waiting_delay';
    if (!pending && next.delayMs > 0) setCurrentDetails(`waiting for ${stepName(next)}, due ${dueAt(next.delayMs)} (step delay)`);
    if (!pending && next.delayMs > 0 && (await condition(() => exitReason !== null, next.delayMs))) break;
    let result: SendResult | undefined = pending;
    pending = undefined;
    for (;;) {
      if (!result) {
        if (exitReason !== null) break;
        phase = 'sending';
        setCurrentDetails(`sending ${stepName(next)}`);
        result = await seqSendStep({ enrollmentId: input.enrollmentId, stepId: next.stepId, now: Date.now() });
      }
      if (result.outcome !== 'wait') break;
      phase = result.reason === 'paused' ? 'paused' : 'waiting_window';
      setCurrentDetails(
        result.reason === 'paused'
          ? `${stepName(next)} held: the sequence is paused; re-checked at ${dueAt(result.waitMs)} or on resume`
          : `waiting for ${stepName(next)}, due ${dueAt(result.waitMs)} (sending window)`,
      );
      resumed = false;
      const waitReason = result.reason;
      await condition(() => exitReason !== null || (waitReason === 'paused' && resumed), result.waitMs);
      result = undefined;
    }
    if (exitReason !== null || !result) break; // the loop leaves a `wait` only for an exit
    if (result.outcome === 'sent') sent++;
    next = result.next;
  }
  if (exitReason !== null) return finish('exited', exitReason);
  if (next.kind === 'end') return finish(next.status, next.reason);
  return finish('exited', null);
}
