import { z } from 'zod';
import { zId, zIsoTime } from '../envelope';

/** The payloads of the follow-up's webhook events (docs/webhooks.md "Events"; the OpenAPI document's `webhooks`). */
const zRecording = z.strictObject({
  url: z
    .string()
    .meta({ description: "A link that works when the event is sent; a provider's link expires (read the meeting for a fresh one)" }),
  duration_seconds: z.number().int(),
});
const zNotes = z.strictObject({ summary: z.string(), action_items: z.array(z.string()) });

export const zRecordingReadyEvent = z
  .strictObject({
    event: z.literal('meeting.recording_ready'),
    timestamp: zIsoTime,
    data: z.strictObject({
      meeting_id: zId,
      recording: zRecording,
      source: z
        .enum(['provider', 'integrator'])
        .meta({ description: "`provider`: the video provider's; `integrator`: set by PUT …/recording" }),
    }),
  })
  .meta({ id: 'MeetingRecordingReadyEvent' });

export const zNotesReadyEvent = z
  .strictObject({
    event: z.literal('meeting.notes_ready'),
    timestamp: zIsoTime,
    data: z.strictObject({ meeting_id: zId, ai_notes: zNotes }),
  })
  .meta({ id: 'MeetingNotesReadyEvent' });

/** The events the OpenAPI document lists under `webhooks`, with their payloads. */
export const WEBHOOK_PAYLOADS = [
  { event: 'meeting.recording_ready', summary: "A meeting's recording is available", schema: zRecordingReadyEvent },
  { event: 'meeting.notes_ready', summary: "A meeting's AI notes (summary and action items) are written", schema: zNotesReadyEvent },
] as const;
