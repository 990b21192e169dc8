import type { Config } from '../../core/config';

/**
 * Video-meeting providers. Providers 1 and 2 build their links from a configurable URL template
 * (no third-party call inline, DESIGN.md "Fixed details"); provider 3 is refused when an event
 * type is saved. Deleting a template link has nothing remote to remove; a provider with a real
 * API implements deleteMeeting, which the cleanup workflow calls.
 */
export interface VideoProvider {
  createLink(meetingId: string): string;
  deleteMeeting(link: string): Promise<void>;
}

function templateProvider(template: string): VideoProvider {
  return {
    createLink: (meetingId) => template.replace('{meeting_id}', encodeURIComponent(meetingId)),
    deleteMeeting: async () => undefined,
  };
}

export function videoProvider(
  config: Pick<Config, 'VIDEO_PROVIDER_1_URL_TEMPLATE' | 'VIDEO_PROVIDER_2_URL_TEMPLATE'>,
  locationType: string | null,
): VideoProvider | null {
  if (locationType === 'video_provider_1') return templateProvider(config.VIDEO_PROVIDER_1_URL_TEMPLATE);
  if (locationType === 'video_provider_2') return templateProvider(config.VIDEO_PROVIDER_2_URL_TEMPLATE);
  return null;
}
