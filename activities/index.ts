import { accountsActivities } from './accounts';
import { appReviewActivities } from './app-review';
import { bookingActivities } from './booking';
import { calendarActivities } from './calendars';
import { calendarWriteActivities } from './calendars/write-back';
import type { ActivityDeps } from './deps';
import { formsActivities } from './forms';
import { mailActivities } from './mail';
import { maintenanceActivities } from './maintenance';
import { followupActivities } from './meeting-followup';
import { pingActivities } from './ping';
import { routingFollowupActivities } from './routing-followup';
import { sequencesActivities } from './sequences';
import { webhooksActivities } from './webhooks';

/** Every activity, bound to its dependencies (the temporalio/samples-typescript pattern). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...pingActivities(deps),
    ...webhooksActivities(deps),
    ...bookingActivities(deps),
    ...calendarWriteActivities(deps),
    ...followupActivities(deps),
    ...sequencesActivities(deps),
    ...appReviewActivities(deps),
    ...formsActivities(deps),
    ...routingFollowupActivities(deps),
    ...accountsActivities(deps),
    ...mailActivities(deps),
    ...calendarActivities(deps),
    ...maintenanceActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
export type { ActivityDeps };
