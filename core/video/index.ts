import type { Config } from '../config';
import { dailyProvider } from './daily';
import { linkFromTemplate, newRoomName, type VideoProvider } from './room';

export {
  linkFromTemplate,
  newRoomName,
  roomOfLink,
  type RecordingLookup,
  type TranscriptLookup,
  type VideoMeetingDetails,
  type VideoProvider,
  type VideoRoom,
} from './room';

/** The location types a video adapter can stand behind. */
const LOCATION_TYPES: readonly string[] = ['video_provider_1', 'video_provider_2'];

type VideoConfig = Pick<
  Config,
  | 'VIDEO_PROVIDER_1_URL_TEMPLATE'
  | 'VIDEO_PROVIDER_2_URL_TEMPLATE'
  | 'VIDEO_PROVIDER_1_ADAPTER'
  | 'VIDEO_PROVIDER_2_ADAPTER'
  | 'DAILY_API_URL'
  | 'DAILY_API_KEY'
>;

/** A room that exists as soon as someone opens its URL (Jitsi Meet and compatible services). */
function urlProvider(template: string): VideoProvider {
  return {
    planRoom: () => {
      const name = newRoomName();
      return { name, link: linkFromTemplate(template, name) };
    },
    deleteMeeting: async () => undefined,
  };
}

/**
 * Zoom: the meeting and its join URL are made by the booking workflow (services/zoom/meetings.ts),
 * so the booking has no link yet and there is no room to plan; the cleanup deletes it there too.
 */
const zoomPlaceholder: VideoProvider = { planRoom: () => ({ name: '', link: '' }), deleteMeeting: async () => undefined };

/**
 * Google Meet: the link is the conference Google makes on the booking's event on the host's Google
 * destination calendar (services/calendars/write-back.ts, run by the booking workflow's room step);
 * nothing to plan, and deleting the event ends it (the cleanup's calendar step).
 */
const meetPlaceholder: VideoProvider = { planRoom: () => ({ name: '', link: '' }), deleteMeeting: async () => undefined };

/** A video provider's adapter: Zoom, Daily, Google Meet, Microsoft Teams (the same way, on a Microsoft calendar), or a room at a URL template. */
export type VideoAdapter = VideoConfig['VIDEO_PROVIDER_1_ADAPTER'];

/** The adapter behind a location type (null: not a video provider with an adapter). */
export function videoAdapter(config: VideoConfig, locationType: string | null): VideoAdapter | null {
  if (locationType === 'video_provider_1') return config.VIDEO_PROVIDER_1_ADAPTER;
  if (locationType === 'video_provider_2') return config.VIDEO_PROVIDER_2_ADAPTER;
  return null;
}

/** The provider behind a location type, built from config (null: not a video provider with an adapter). */
function videoProvider(config: VideoConfig, locationType: string | null): VideoProvider | null {
  const adapter = videoAdapter(config, locationType);
  if (adapter === null) return null;
  const template = locationType === 'video_provider_1' ? config.VIDEO_PROVIDER_1_URL_TEMPLATE : config.VIDEO_PROVIDER_2_URL_TEMPLATE;
  if (adapter === 'zoom') return zoomPlaceholder;
  if (adapter === 'google_meet' || adapter === 'microsoft_teams') return meetPlaceholder;
  if (adapter === 'daily') return dailyProvider(template, { apiUrl: config.DAILY_API_URL, apiKey: config.DAILY_API_KEY ?? '' });
  return urlProvider(template);
}

/**
 * The process's video providers, one per location type, built once from config with the process's
 * dependencies (services/deps.ts `video`): a use case asks `deps.video` and never builds one.
 */
export interface VideoProviders {
  /** The adapter behind a location type (null: not a video provider with an adapter). */
  adapterOf(locationType: string | null): VideoAdapter | null;
  /** The provider behind a location type (null: not a video provider with an adapter). */
  providerOf(locationType: string | null): VideoProvider | null;
}

export function videoProviders(config: VideoConfig): VideoProviders {
  const built = new Map(LOCATION_TYPES.map((t) => [t, videoProvider(config, t)] as const));
  return {
    adapterOf: (locationType) => videoAdapter(config, locationType),
    providerOf: (locationType) => (locationType === null ? null : (built.get(locationType) ?? null)),
  };
}
