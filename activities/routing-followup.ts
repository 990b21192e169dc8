import { followUpUnbooked } from '../services/forms/unbooked';
import type { UnbookedFollowUpInput, UnbookedOutcome } from '../workflows/forms/contract';
import type { ActivityDeps } from './deps';

/**
 * The routing follow-up (workflows/forms/unbooked.ts): a routed submitter who booked no meeting
 * gets the form's follow-up. Adapter of services/forms/unbooked.ts; the name is what running
 * workflows call.
 */
export function routingFollowupActivities(deps: ActivityDeps) {
  return {
    async followUpUnbooked(input: UnbookedFollowUpInput): Promise<UnbookedOutcome> {
      return followUpUnbooked(deps, input);
    },
  };
}

export type RoutingFollowupActivities = ReturnType<typeof routingFollowupActivities>;
