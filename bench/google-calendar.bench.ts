import { startGoogleStandin, type GoogleStandin } from '../test/helpers/google-standin';
import { measureFreshness } from './calendar-freshness';
import type { BenchEnv } from './harness';

/**
 * Google Calendar freshness (bench/calendar-freshness.ts; docs/calendars.md "Google Calendar"):
 * the push reaches the API's hook, the worker reads events.list with the sync token. Target p99 ≤ 5 s.
 */
const ROUNDS = Number(process.env.BENCH_GOOGLE_ROUNDS ?? 40);
const OWNER = 'bench@gmail.example';
let g: GoogleStandin;

/** Settings for this bench's environment (bench/index.ts): Google's URLs point at the stand-in. */
export async function benchEnv(): Promise<Record<string, string>> {
  g = await startGoogleStandin({ clientId: 'bench-client', clientSecret: 'bench-secret' });
  return g.env();
}

export default async function googleCalendarBench(env: BenchEnv): Promise<void> {
  try {
    g.addCalendar(OWNER, { id: OWNER, primary: true });
    await measureFreshness(
      env,
      {
        name: 'Google',
        authorizePath: '/api/v1/google-calendar/authorize',
        kind: 'google',
        owner: OWNER,
        pushReady: () => g.channels.size === 1,
        putEvent: (id, start, end) => g.putEvent(OWNER, { id, start: { dateTime: start }, end: { dateTime: end } }),
        deleteEvent: (id) => g.deleteEvent(OWNER, id),
      },
      ROUNDS,
    );
  } finally {
    await g.close();
  }
}
