import { ApplicationFailure } from '@temporalio/activity';
import { AiRateLimitedError } from '../core/ai-notes';
import * as steps from '../services/meeting-followup/steps';
import { zoomEventsSeen } from '../services/zoom/followup';
import { withZoomFailures } from './zoom-failures';
import type { FollowupBegin, FollowupPlan, ProviderEventsSeen } from '../workflows/scheduling/contract';
import type { ActivityDeps } from './deps';

/** Activities of the after-the-meeting follow-up: adapters of services/meeting-followup/steps.ts. */
export function followupActivities(deps: ActivityDeps) {
  return {
    async planMeetingFollowup(meetingId: string): Promise<FollowupPlan | null> {
      return steps.planMeetingFollowup(deps, { meetingId });
    },
    async beginMeetingFollowup(meetingId: string): Promise<FollowupBegin> {
      return steps.beginMeetingFollowup(deps, { meetingId });
    },
    async fetchMeetingRecording(meetingId: string): Promise<string> {
      return withZoomFailures(() => steps.fetchMeetingRecording(deps, { meetingId }));
    },
    /** What the video provider's events brought so far (Zoom). */
    async providerEventsSeen(meetingId: string): Promise<ProviderEventsSeen> {
      return zoomEventsSeen(deps, { meetingId });
    },
    async meetingRecordingUnavailable(meetingId: string): Promise<void> {
      return steps.meetingRecordingUnavailable(deps, { meetingId });
    },
    async fetchMeetingTranscript(meetingId: string): Promise<string> {
      return withZoomFailures(() => steps.fetchMeetingTranscript(deps, { meetingId }));
    },
    async writeMeetingNotes(meetingId: string): Promise<string> {
      try {
        return await steps.writeMeetingNotes(deps, { meetingId });
      } catch (err) {
        // 429: the next attempt waits for the provider's Retry-After instead of the policy's backoff
        if (err instanceof AiRateLimitedError) {
          throw ApplicationFailure.create({ message: err.message, type: 'AiRateLimited', nextRetryDelay: err.retryAfterMs });
        }
        throw err;
      }
    },
    async meetingNotesFailed(meetingId: string): Promise<void> {
      return steps.meetingNotesFailed(deps, { meetingId });
    },
  };
}

export type FollowupActivities = ReturnType<typeof followupActivities>;
