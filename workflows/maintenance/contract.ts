/** The maintenance workflow's contract: the Schedule and workflow ids and the input. */

/** One Schedule per entry of services/maintenance/tasks.ts. */
export const maintenanceScheduleId = (task: string) => `maintenance-${task}`;

export interface MaintenanceInput {
  /** A key of `maintenanceTasks` (services/maintenance/tasks.ts). */
  task: string;
}
