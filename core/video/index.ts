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

/** The adapter behind a location type (null: not a video provider with an adapter). */
export function videoAdapter(config: VideoConfig, locationType: string | null): VideoConfig['VIDEO_PROVIDER_1_ADAPTER'] | null {
  if (locationType === 'video_provider_1') return config.VIDEO_PROVIDER_1_ADAPTER;
  if (locationType === 'video_provider_2') return config.VIDEO_PROVIDER_2_ADAPTER;
  return null;
}

export function videoProvider(config: VideoConfig, locationType: string | null): VideoProvider | null {
  const adapter = videoAdapter(config, locationType);
  if (adapter === null) return null;
  const template = locationType === 'video_provider_1' ? config.VIDEO_PROVIDER_1_URL_TEMPLATE : config.VIDEO_PROVIDER_2_URL_TEMPLATE;
  if (adapter === 'zoom') return zoomPlaceholder;
  if (adapter === 'daily') return dailyProvider(template, { apiUrl: config.DAILY_API_URL, apiKey: config.DAILY_API_KEY ?? '' });
  return urlProvider(template);
}
