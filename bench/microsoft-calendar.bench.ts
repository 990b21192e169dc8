import { startMicrosoftStandin, type MicrosoftStandin } from '../test/helpers/microsoft-standin';
import { measureFreshness } from './calendar-freshness';
import type { BenchEnv } from './harness';

/**
 * Microsoft 365 freshness (bench/calendar-freshness.ts; docs/calendars.md "Microsoft 365"): the
 * Graph change notification reaches the API's hook, the worker reads calendarView/delta with its
 * deltaLink. Target p99 ≤ 5 s.
 */
const ROUNDS = Number(process.env.BENCH_MICROSOFT_ROUNDS ?? 40);
const OWNER = 'bench@contoso.example';
const CALENDAR = 'AAMkAGI2-bench';
let m: MicrosoftStandin;

/** Settings for this bench's environment (bench/index.ts): Microsoft's URLs point at the stand-in. */
export async function benchEnv(): Promise<Record<string, string>> {
  m = await startMicrosoftStandin({ clientId: 'bench-client', clientSecret: 'bench-secret' });
  return m.env();
}

export default async function microsoftCalendarBench(env: BenchEnv): Promise<void> {
  try {
    m.addCalendar(OWNER, { id: CALENDAR, name: 'Calendar' });
    await measureFreshness(
      env,
      {
        name: 'Microsoft 365',
        authorizePath: '/api/v1/microsoft-calendar/authorize',
        kind: 'microsoft',
        owner: OWNER,
        pushReady: () => [...m.subscriptions.values()].some((s) => s.calendarId === CALENDAR),
        putEvent: (id, start, end) => m.putEvent(CALENDAR, { id, start, end }),
        deleteEvent: (id) => m.deleteEvent(CALENDAR, id),
      },
      ROUNDS,
    );
  } finally {
    await m.close();
  }
}
