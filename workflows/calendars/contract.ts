import { defineSignal } from '@temporalio/workflow';

/** The calendar sync workflow's contract: id, signals and input (shared by services, activities and the workflow). */
export const calendarSyncWorkflowId = (connectionId: string) => `calendar-sync-${connectionId}`;

/** Sync now (POST /api/v1/calendar-connections/{id}/sync). */
export const calendarSyncNowSignal = defineSignal('calendarSyncNow');
/** The connection was deleted: stop (the next sync would find it gone anyway). */
export const calendarSyncStopSignal = defineSignal('calendarSyncStop');

export interface CalendarSyncInput {
  connectionId: string;
  teamId: string;
  userId: string;
}

/** What a continued run carries over. */
export interface CalendarSyncState {
  /** A sync was asked for while the previous run was ending. */
  requested?: boolean;
}

/** Syncs per run before continue-as-new (about a dozen history events each). */
export const SYNCS_PER_RUN = 150;

/** The start signatures of this feature's workflows (workflows/starts.ts: the outbox's type map). */
export interface CalendarsStarts {
  calendarSyncWorkflow(input: CalendarSyncInput, state?: CalendarSyncState): Promise<string>;
}
