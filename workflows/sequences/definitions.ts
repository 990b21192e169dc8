import { defineQuery, defineSignal } from '@temporalio/workflow';

/** Stop the enrollment at once; the database row already carries the reason. */
export const exitSignal = defineSignal<[{ reason: string }]>('exit');
/** The sequence was resumed: re-check a step held by a pause now. */
export const resumeSignal = defineSignal('resume');
/** Where the enrollment is, for operators and tests. */
export const enrollmentStateQuery = defineQuery<{ phase: string; stepId: string | null; exitReason: string | null }>('state');
