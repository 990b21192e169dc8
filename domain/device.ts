export type DeviceType = 'desktop' | 'mobile' | 'tablet';

const TABLET = /iPad|Tablet|PlayBook|Silk|Kindle|Nexus (7|9|10)|SM-T\d|Android(?!.*Mobile)/i;
const MOBILE = /Mobi|iPhone|iPod|Windows Phone|BlackBerry|BB10|Opera Mini|IEMobile|webOS/i;

/** Device class from a User-Agent string; null when there is no user agent. */
export function deviceType(userAgent: string | null | undefined): DeviceType | null {
  if (!userAgent) return null;
  if (TABLET.test(userAgent)) return 'tablet';
  if (MOBILE.test(userAgent)) return 'mobile';
  return 'desktop';
}
