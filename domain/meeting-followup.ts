/**
 * The shapes of a meeting's after-the-meeting results (docs/scheduling.md "After the meeting"),
 * and why a meeting has none. Pure: stored in jsonb columns, shown by the meetings API.
 */
export interface MeetingAiNotes {
  summary: string;
  action_items: string[];
}

export interface MeetingRecording {
  url: string;
  duration_seconds: number;
}

/** Why `recording` is null (`pending`: the follow-up has not finished yet). */
export const RECORDING_REASONS = [
  'pending',
  'no_video',
  'provider_has_no_api',
  'not_recorded',
  'not_held',
  // Zoom (docs/scheduling.md "Zoom"): the host's account has no cloud recording; the host deleted the Zoom meeting
  'cloud_recording_off',
  'video_meeting_deleted',
] as const;
export type RecordingReason = (typeof RECORDING_REASONS)[number];

/** Why `ai_notes` is null. */
export const AI_NOTES_REASONS = ['pending', 'disabled', 'not_configured', 'no_transcript', 'failed', 'erased', 'not_held'] as const;
export type AiNotesReason = (typeof AI_NOTES_REASONS)[number];
