/** The maintenance workflow's contract: the Schedule and workflow ids and the input. */

/** One Schedule per entry of services/maintenance/tasks.ts. */
export const maintenanceScheduleId = (task: string) => `maintenance-${task}`;

export interface MaintenanceInput {
  /** A key of `maintenanceTasks` (services/maintenance/tasks.ts). */
  task: string;
}

/** The start signature of the maintenance workflow (workflows/starts.ts: the outbox's type map). */
export interface MaintenanceStarts {
  maintenanceWorkflow(input: MaintenanceInput): Promise<unknown>;
}
