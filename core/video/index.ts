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

export function videoProvider(config: VideoConfig, locationType: string | null): VideoProvider | null {
  const n = locationType === 'video_provider_1' ? 1 : locationType === 'video_provider_2' ? 2 : null;
  if (n === null) return null;
  const template = n === 1 ? config.VIDEO_PROVIDER_1_URL_TEMPLATE : config.VIDEO_PROVIDER_2_URL_TEMPLATE;
  const adapter = n === 1 ? config.VIDEO_PROVIDER_1_ADAPTER : config.VIDEO_PROVIDER_2_ADAPTER;
  if (adapter === 'daily') return dailyProvider(template, { apiUrl: config.DAILY_API_URL, apiKey: config.DAILY_API_KEY ?? '' });
  return urlProvider(template);
}
