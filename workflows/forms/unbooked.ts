import { condition, proxyActivities, setCurrentDetails, setHandler } from '@temporalio/workflow';
import type { RoutingFollowupActivities } from '../../activities/routing-followup';
import { routedMeetingBookedSignal, type UnbookedFollowUpInput, type UnbookedOutcome } from './contract';

const { followUpUnbooked } = proxyActivities<RoutingFollowupActivities>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '10s', backoffCoefficient: 2, maximumInterval: '1h', maximumAttempts: 30 },
});

/**
 * `form-unbooked-<submission_id>`: after a routed submission, wait `waitMs` for a meeting booked
 * from it; a booking signals `routedMeetingBooked` and ends the wait. When the time is up the
 * activity looks again (a lost signal only costs that look) and, if no meeting came, enrolls the
 * submission's contact in the sequence.
 */
export async function unbookedFollowUpWorkflow(input: UnbookedFollowUpInput): Promise<UnbookedOutcome> {
  let booked = false;
  setHandler(routedMeetingBookedSignal, () => {
    booked = true;
  });
  setCurrentDetails(`waiting until ${new Date(Date.now() + input.waitMs).toISOString()} for a meeting booked from the submission`);
  if (await condition(() => booked, input.waitMs)) {
    setCurrentDetails('a meeting was booked from the submission: no follow-up');
    return 'booked';
  }
  setCurrentDetails(`no meeting booked: enrolling the contact in sequence ${input.sequenceId}`);
  return followUpUnbooked(input);
}
