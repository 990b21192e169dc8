import { createActivities } from '../../activities';
import { buildWorkerDeps } from '../../activities/deps';
import { createMailer } from '../../core/mailer';
import { createSmsSender } from '../../core/sms';
import { jsonb } from '../../db/jsonb';
import { addMember } from '../../services/team';
import { calendarSyncWorkflowId } from '../../workflows/calendars/contract';
import { historyFacts, historyReaches } from '../helpers/history';
import { eventually } from '../helpers/smtp';
import { useApiWorld, type ApiWorld } from '../helpers/world';
import { publishedEventType } from '../scheduling/helpers';

/**
 * A suite's provider calendar world (Google, Microsoft): the provider's stand-in (test/helpers/), the
 * API and a worker running the real sync workflow against it (Temporal test server), a team whose owner
 * connects an account, and a second host (no calendar) on a round-robin page with the owner.
 */
const DAYTIME = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '08:00', end: '18:00', enabled: true }));

export interface Standin {
  env: () => Record<string, string>;
  close: () => Promise<void>;
}
export interface ProviderWorld<S extends Standin> {
  w: ApiWorld;
  g: () => S;
  ctx: { memberId: string; eventTypeId: string; pageId: string };
}

/** The worker's activities for a world with a test SMTP server: mail goes there, SMS nowhere. */
export function smtpActivities(w: ApiWorld): object {
  const mailer = createMailer({ SMTP_URL: w.smtp.url, MAIL_FROM: 'Bookings <bookings@example.com>', dataDir: '/tmp/unused' });
  const sms = createSmsSender({ ...w.app.config, TWILIO_ACCOUNT_SID: undefined });
  return createActivities(buildWorkerDeps(w.app.config, w.tdb.db, w.app.deps.outbox, { mailer, sms }));
}

export function useProviderWorld<S extends Standin>(start: () => Promise<S>): ProviderWorld<S> {
  let g: S;
  const ctx = { memberId: '', eventTypeId: '', pageId: '' };
  beforeAll(async () => {
    g = await start();
  });
  const w = useApiWorld({
    temporal: 'time-skipping',
    env: () => g.env(),
    worker: (world) =>
      createActivities(
        buildWorkerDeps(world.app.config, world.tdb.db, world.app.deps.outbox, {
          mailer: createMailer({ ...world.app.config, SMTP_URL: undefined }),
          sms: createSmsSender({ ...world.app.config, TWILIO_ACCOUNT_SID: undefined }),
        }),
      ),
  });
  beforeAll(async () => {
    const member = await addMember(
      { db: w.tdb.db, config: w.app.config },
      { teamId: w.team.teamId, values: { email: `rr-${Date.now()}@example.com`, role: 'member' } },
    );
    ctx.memberId = member.id;
    for (const u of [w.team.userId, member.id])
      await w.tdb
        .db('availability_schedules')
        .where({ user_id: u })
        .update({ rules: jsonb(DAYTIME), timezone: 'UTC' });
    const p = await publishedEventType(
      w.app.baseUrl,
      w.team,
      { page_type: 'round_robin', host_user_ids: [w.team.userId, member.id] },
      { duration_minutes: 60, start_time_increment: 60, min_notice_minutes: 0 },
    );
    ctx.eventTypeId = p.eventTypeId;
    ctx.pageId = p.pageId;
  }, 60_000);
  afterAll(() => g?.close());
  return { w, g: () => g, ctx };
}

/** The host's browser: the dashboard asks for the provider's page, the provider sends it back to the callback. */
export async function connectVia(
  w: ApiWorld,
  provider: 'google' | 'microsoft',
  loginAs: string,
  opts: { grantScopes?: string; session?: ApiWorld['session'] } = {},
) {
  const started = await (opts.session ?? w.session).post(`/api/v1/${provider}-calendar/authorize`, {});
  expect(started.status).toBe(200);
  const authorize = new URL(started.body.data.authorize_url);
  authorize.searchParams.set('login_as', loginAs); // the stand-in's way of naming who signs in
  if (opts.grantScopes) authorize.searchParams.set('grant_scopes', opts.grantScopes);
  const atProvider = await fetch(authorize, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const back = await fetch(atProvider.headers.get('location')!);
  return { status: back.status, text: await back.text(), authorize };
}

/** The round-robin page's slots on a UTC day: start "HH:MM" → how many hosts offer it. */
export async function rrSlots(gw: { w: ApiWorld; ctx: ProviderWorld<Standin>['ctx'] }, day: string): Promise<Map<string, number>> {
  const { w, ctx } = gw;
  const res = await fetch(
    `${w.app.baseUrl}/api/calendar/availability?user_id=${w.team.userId}&team_id=${w.team.teamId}&date=${day}&event_type_id=${ctx.eventTypeId}&scheduling_page_id=${ctx.pageId}`,
  );
  expect(res.status).toBe(200);
  const body = (await res.json()) as { available_slots: Array<{ start: string; available_host_count?: number }> };
  return new Map(body.available_slots.map((s) => [s.start.slice(11, 16), s.available_host_count ?? 0]));
}

/** A connection once a sync after `since` has finished. */
export async function waitForSync(w: ApiWorld, id: string, since: number, status?: string) {
  return eventually(
    async () => {
      const c = (await w.api.get(`/api/v1/calendar-connections/${id}`)).body.data;
      const last = Math.max(Date.parse(c?.last_synced_at ?? '') || 0, Date.parse(c?.last_error_at ?? '') || 0);
      return c && c.status !== 'syncing' && last >= since && (!status || c.status === status) ? c : undefined;
    },
    `a sync of ${id} after ${new Date(since).toISOString()}${status ? ` (${status})` : ''}`,
  );
}

/** "Sync now" on a connection, then the connection once that sync has finished. */
export async function syncNowAndWait(w: ApiWorld, id: string, status?: string) {
  const since = Date.now();
  expect((await w.session.post(`/api/v1/calendar-connections/${id}/sync`)).status).toBe(202);
  return waitForSync(w, id, since, status);
}

/**
 * "A push wakes nothing", observed in the connection's sync workflow: its signals now, and a check
 * that exactly one more arrives (the right push a test sends after its spoofs). The stand-ins'
 * request counts are no witness: the workflow's own timers may sync at any moment under time-skipping.
 */
export async function syncSignals(w: ApiWorld, connectionId: string) {
  const run = await w.env.client.workflow.getHandle(calendarSyncWorkflowId(connectionId)).describe();
  const handle = w.env.client.workflow.getHandle(run.workflowId, run.runId);
  const before = (await historyFacts(handle)).signals;
  return {
    /** Waits for the next signal; there must be exactly one (unless the run continued as new meanwhile). */
    async expectExactlyOneMore(): Promise<void> {
      const after = await historyReaches(handle, (f) => f.signals > before || f.closed, 'a signal after the right push');
      if (!after.closed) expect(after.signals).toBe(before + 1);
    },
  };
}
