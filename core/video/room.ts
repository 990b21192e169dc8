import { randomBytes } from 'node:crypto';

/** A video room: its name at the provider and the link people open. */
export interface VideoRoom {
  name: string;
  link: string;
}

export interface VideoMeetingDetails {
  title: string;
  start: Date;
  end: Date;
  /** The event type has AI notes on: the room records to the cloud and stores a transcript. */
  record?: boolean;
}

/** What the provider has of a room's recording (docs/scheduling.md "After the meeting"). */
export type RecordingLookup =
  { state: 'processing' } | { state: 'none' } | { state: 'ready'; id: string; durationSeconds: number; url: string };

/** What the provider has of a room's transcript: the WebVTT text once it is finished. */
export type TranscriptLookup = { state: 'processing' } | { state: 'none' } | { state: 'ready'; vtt: string };

/**
 * A video-meeting provider (location types `video_provider_1` and `video_provider_2`).
 * `planRoom` runs in the booking transaction and makes no call: the link is known at once, so the
 * 201 carries it. A provider that needs an API call to make the room implements `createMeeting`,
 * which the booking workflow calls (an activity, retried) before any email goes out;
 * `deleteMeeting` is called by the cleanup workflow. Both must be idempotent.
 */
export interface VideoProvider {
  planRoom(): VideoRoom;
  createMeeting?(room: VideoRoom, details: VideoMeetingDetails): Promise<void>;
  deleteMeeting(room: VideoRoom): Promise<void>;
  /** Providers with a recordings API only (a URL-template room has none: `provider_has_no_api`). */
  findRecording?(room: VideoRoom): Promise<RecordingLookup>;
  /** A fresh access link of a stored recording (the provider's links expire). */
  /** A fresh access link to the recording, and when it expires (epoch ms) if the provider says. */
  recordingLink?(recordingId: string): Promise<{ url: string; expiresAt: number | null }>;
  findTranscript?(room: VideoRoom): Promise<TranscriptLookup>;
}

/** 128 random bits in lowercase base32: a room name nobody can guess (Jitsi rooms are open to whoever knows the name). */
export function newRoomName(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(16);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return `fss-${out}`;
}

/** The room name of a link made from a template: the last path segment. */
export function roomOfLink(link: string): VideoRoom {
  let name = '';
  try {
    name = decodeURIComponent(new URL(link).pathname.split('/').filter(Boolean).pop() ?? '');
  } catch {
    name = '';
  }
  return { name, link };
}

/** `{room}` (and the older `{meeting_id}`) in the template become the room name. */
export function linkFromTemplate(template: string, room: string): string {
  return template.replaceAll('{room}', encodeURIComponent(room)).replaceAll('{meeting_id}', encodeURIComponent(room));
}
