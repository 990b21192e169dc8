/**
 * Pure parts of writing to Google Calendar (docs/calendars.md "Writing bookings", "Google Meet"): the
 * event id derived from a meeting's UID (Google's rule for client-chosen ids: base32hex a–v and 0–9,
 * 5 to 1024 characters), its later generations, and the settings the Meet adapter needs.
 */
import { googleEventIdOf, meetRequestIdOf } from '../../core/calendars/google-events';
import { ConfigError, parseConfig } from '../../core/config';
import { eventIdsFrom } from '../../services/calendars/google-write';

test('the event id of a UID is base32hex, 52 characters, the same for the same UID and different for another', () => {
  const uids = ['meeting-1@example.com', 'meeting-2@example.com', 'ünïcode@example.com', ''];
  const ids = uids.map(googleEventIdOf);
  for (const id of ids) expect(id).toMatch(/^[a-v0-9]{52}$/);
  expect(new Set(ids).size).toBe(uids.length);
  expect(googleEventIdOf('meeting-1@example.com')).toBe(ids[0]);
  expect(meetRequestIdOf(ids[0])).toBe(`fss-meet-${ids[0]}`);
});

test('the later ids of a booking (after the host deleted its event at Google) are valid ids too, in a fixed order', () => {
  const base = googleEventIdOf('x@example.com');
  const ids = eventIdsFrom(base);
  expect(ids).toEqual([base, `${base}1`, `${base}2`, `${base}3`]);
  for (const id of ids) expect(id).toMatch(/^[a-v0-9]{5,1024}$/);
});

test('VIDEO_PROVIDER_n_ADAPTER=google_meet needs the Google OAuth client', () => {
  const env = { NODE_ENV: 'test', DATABASE_URL: 'postgres://localhost/x', VIDEO_PROVIDER_2_ADAPTER: 'google_meet' };
  expect(() => parseConfig(env)).toThrow(ConfigError);
  expect(() => parseConfig(env)).toThrow('GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: required when VIDEO_PROVIDER_2_ADAPTER=google_meet');
  expect(parseConfig({ ...env, GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' }).VIDEO_PROVIDER_2_ADAPTER).toBe('google_meet');
  expect(() => parseConfig({ ...env, VIDEO_PROVIDER_2_ADAPTER: 'daily' })).toThrow(
    'DAILY_API_KEY: required when VIDEO_PROVIDER_2_ADAPTER=daily',
  );
});
