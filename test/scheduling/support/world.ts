import { meetingActivities } from './activities';
import { buildWorkerDeps } from '../../../activities/deps';
import { createMailer } from '../../../core/mailer';
import type { Mail } from '../../helpers/smtp';
import { useApiWorld, type ApiWorld } from '../../helpers/world';

/** A suite's scheduling world: database, SMTP sink, Temporal test server, API, one available host. */
export interface SchedulingWorld extends ApiWorld {
  /** The real scheduling activities, mailing to the suite's SMTP sink. */
  activities(): ReturnType<typeof meetingActivities>;
  /** Messages about one meeting, of one X-Meeting-Email kind. */
  mails(meetingId: string, kind: string): Mail[];
  /** Waits (up to 20 s) until `count` such messages arrived. */
  waitForMail(meetingId: string, kind: string, count?: number): Promise<Mail[]>;
}

/** Set up in beforeAll, torn down in afterAll; read the fields inside tests. */
export function useSchedulingWorld(opts: { env?: Record<string, string>; timezone?: string } = {}): SchedulingWorld {
  const w = useApiWorld<SchedulingWorld>({ temporal: 'time-skipping', smtp: true, env: opts.env, available: opts.timezone ?? true });
  w.activities = () =>
    meetingActivities(
      buildWorkerDeps(w.app.config, w.tdb.db, w.app.deps.outbox, {
        mailer: createMailer({ SMTP_URL: w.smtp.url, MAIL_FROM: 'Bookings <bookings@example.com>', dataDir: '/tmp/unused' }),
      }),
    );
  w.mails = (meetingId, kind) =>
    w.smtp.messages.filter((m) => m.headers.get('x-meeting-id') === meetingId && m.headers.get('x-meeting-email') === kind);
  w.waitForMail = async (meetingId, kind, count = 1) => {
    for (let i = 0; i < 200 && w.mails(meetingId, kind).length < count; i++) await new Promise((r) => setTimeout(r, 100));
    return w.mails(meetingId, kind);
  };
  return w;
}
