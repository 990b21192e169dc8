import type { ServiceDeps } from '../deps';
import { signLinkToken, verifyLinkToken, type LinkPurpose, type LinkTokenClaims } from '../../domain/link-tokens';
import { appSecret } from '../app-secrets';
import type { MeetingRow } from '../meetings/row';
import { publicUrl } from '../mail/render/links';

const SECRET = 'booking_links';
const HOUR = 3_600_000;

/** An unconfirmed booking lapses this long before its start (docs/scheduling.md "Lifecycle"). */
export const LAPSE_BEFORE_START_MS = HOUR;

/** When an unconfirmed booking lapses: an hour before the start, or at the start when booked later than that. */
export function lapseAt(m: Pick<MeetingRow, 'start_time' | 'created_at'>): number {
  const start = new Date(m.start_time).getTime();
  const lapse = start - LAPSE_BEFORE_START_MS;
  return lapse > new Date(m.created_at).getTime() ? lapse : start;
}

/** The page a link opens: `/booking/<token>`. */
export const bookingLinkUrl = (config: { baseUrl: string }, token: string) => publicUrl(config, `/booking/${token}`);

/** Attendee links live until the meeting ends; host confirm/decline links until the request lapses. */
export async function meetingLinkUrls(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  input: { meeting: MeetingRow },
): Promise<{ cancel: string; reschedule: string; confirm: string; decline: string }> {
  const { db } = deps;
  const { meeting: m } = input;
  const key = await appSecret({ db }, { name: SECRET });
  const end = new Date(m.end_time);
  const lapse = new Date(lapseAt(m));
  const url = (p: LinkPurpose, until: Date) => bookingLinkUrl(deps.config, signLinkToken(key, m.id, p, until));
  return { cancel: url('cancel', end), reschedule: url('reschedule', end), confirm: url('confirm', lapse), decline: url('decline', lapse) };
}

export async function readLinkToken(
  deps: Pick<ServiceDeps, 'db'>,
  input: { token: string; now?: number },
): Promise<LinkTokenClaims | null> {
  const { db } = deps;
  const { token, now = Date.now() } = input;
  return verifyLinkToken(await appSecret({ db }, { name: SECRET }), token, now);
}
