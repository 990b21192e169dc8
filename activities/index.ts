import { accountsActivities } from './accounts';
import { appReviewActivities } from './app-review';
import { calendarActivities } from './calendars';
import type { ActivityDeps } from './deps';
import { formsActivities } from './forms';
import { mailActivities } from './mail';
import { maintenanceActivities } from './maintenance';
import { pingActivities } from './ping';
import { schedulingActivities } from './scheduling';
import { sequencesActivities } from './sequences';
import { webhooksActivities } from './webhooks';

/** Every activity, bound to its dependencies (the temporalio/samples-typescript pattern). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...pingActivities(deps),
    ...webhooksActivities(deps),
    ...schedulingActivities(deps),
    ...sequencesActivities(deps),
    ...appReviewActivities(deps),
    ...formsActivities(deps),
    ...accountsActivities(deps),
    ...mailActivities(deps),
    ...calendarActivities(deps),
    ...maintenanceActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
export type { ActivityDeps };
