import { webhookUrlPolicy } from '../../core/config';
import { uuid } from '../../core/crypto';
import { ApiError, notFound, validationFailed } from '../../core/errors';
import type { Principal } from '../../core/principal';
import type { Executor } from '../../db/knex';
import { transactionWithOutbox } from '../../temporal/outbox';
import { requestSyncSoon } from './sync-workflow';
import { calendarSyncStopSignal, calendarSyncWorkflowId, type CalendarSyncInput } from '../../workflows/calendars/contract';
import { actingRole } from '../accounts/members';
import type { ServiceDeps } from '../deps';
import { listEnvelope, type Page } from '../pagination';
import { checkSubscriptionUrl } from '../../core/outbound-http';
import { WRITABLE_KINDS } from './calendar-writers';
import { presentConnection } from './present';
import type { CalendarRow, ConnectionRow, ConnectionStatus } from './rows';
import type { CreateConnectionInput, PatchConnectionInput } from './schemas';
import { calendarSecretBox, sealCredentials, type CalendarCredentials } from './secrets';
import { refreshUserBusy } from './user-busy';
import { calendarSyncMetadata } from './workflow-metadata';

/**
 * Calendar connections (docs/calendars.md). Who sees what: an API key (acting for the team) and
 * an owner see every connection of the team; any other user sees and manages their own. Writes
 * are for dashboard sessions (the routes say so). Another team's connection, or one the caller
 * may not see, is a 404. The API never calls a calendar server: the sync workflow does.
 */

const forbidden = (message: string) => new ApiError(403, 'forbidden', message);

/** The user whose connections the caller is limited to, or null for the whole team. */
async function visibleUser(db: Executor, principal: Principal): Promise<string | null> {
  if (principal.kind === 'api_key') return null;
  return (await actingRole(db, principal)) === 'owner' ? null : principal.userId;
}

async function connectionRow(db: Executor, principal: Principal, id: string, forUpdate = false): Promise<ConnectionRow> {
  const q = db('calendar_connections').where({ id, team_id: principal.teamId }).whereNot({ status: 'disconnecting' });
  const only = await visibleUser(db, principal);
  if (only) q.where({ user_id: only });
  if (forUpdate) q.forUpdate();
  const row = (await q.first()) as ConnectionRow | undefined;
  if (!row) throw notFound('Calendar connection');
  return row;
}

async function calendarsOf(db: Executor, connectionIds: string[]): Promise<Map<string, CalendarRow[]>> {
  const map = new Map<string, CalendarRow[]>(connectionIds.map((id) => [id, []]));
  if (connectionIds.length === 0) return map;
  const rows = (await db('calendar_connection_calendars')
    .whereIn('connection_id', connectionIds)
    .orderBy([{ column: 'display_name' }, { column: 'id' }])) as CalendarRow[];
  for (const r of rows) map.get(r.connection_id)?.push(r);
  return map;
}

async function present(db: Executor, row: ConnectionRow) {
  return presentConnection(row, (await calendarsOf(db, [row.id])).get(row.id) ?? []);
}

export interface ListConnectionsInput {
  principal: Principal;
  page: Page;
  filters: { user_id?: string; status?: ConnectionStatus };
}

export async function listConnections(deps: Pick<ServiceDeps, 'db'>, input: ListConnectionsInput) {
  const { db } = deps;
  const { principal, page, filters: filter } = input;
  const base = db('calendar_connections').where({ team_id: principal.teamId }).whereNot({ status: 'disconnecting' });
  const only = await visibleUser(db, principal);
  if (only) base.where({ user_id: only });
  if (filter.user_id) base.where({ user_id: filter.user_id });
  if (filter.status) base.where({ status: filter.status });
  const [rows, count] = await Promise.all([
    base
      .clone()
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.perPage)
      .offset(page.offset),
    base.clone().count<{ n: number }[]>({ n: '*' }).first(),
  ]);
  const calendars = await calendarsOf(
    db,
    (rows as ConnectionRow[]).map((r) => r.id),
  );
  return listEnvelope(
    (rows as ConnectionRow[]).map((r) => presentConnection(r, calendars.get(r.id) ?? [])),
    Number(count?.n ?? 0),
    page,
  );
}

export async function getConnection(deps: Pick<ServiceDeps, 'db'>, input: { principal: Principal; id: string }) {
  const { principal, id } = input;
  return present(deps.db, await connectionRow(deps.db, principal, id));
}

/** `caldav.fastmail.com` → `https://caldav.fastmail.com`; `webcal://` → `https://`. */
function normalizeUrl(raw: string, kind: 'caldav' | 'ics_feed'): string {
  const t = raw.trim();
  if (/^webcals?:\/\//i.test(t)) return t.replace(/^webcals?:/i, 'https:');
  if (kind === 'caldav' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) return `https://${t}`;
  return t;
}

async function checkedUrl(deps: Pick<ServiceDeps, 'config'>, raw: string, kind: 'caldav' | 'ics_feed', path: string): Promise<URL> {
  const r = await checkSubscriptionUrl(normalizeUrl(raw, kind), webhookUrlPolicy(deps.config));
  if (!r.ok) throw validationFailed([{ path, message: r.reason }]);
  return new URL(r.url);
}

/** The member a connection is made for: the caller, or (owners only) another active member. */
async function targetUser(db: Executor, principal: Principal, userId: string | undefined): Promise<string> {
  if (!userId || userId === principal.userId) return principal.userId;
  const member = await db('users').where({ id: userId, team_id: principal.teamId }).whereNull('removed_at').first('id');
  if (!member) throw notFound('User');
  if ((await actingRole(db, principal)) !== 'owner') throw forbidden("Only an owner can connect calendars for another member's account");
  return userId;
}

export async function createConnection(deps: ServiceDeps, input: { principal: Principal; values: CreateConnectionInput }) {
  const { db } = deps;
  const { principal, values } = input;
  const userId = await targetUser(db, principal, values.user_id);
  let creds: CalendarCredentials;
  let displayUrl: string;
  let defaultName: string;
  if (values.kind === 'caldav') {
    const url = await checkedUrl(deps, values.server_url, 'caldav', 'body.server_url');
    creds = { kind: 'caldav', url: url.toString(), username: values.username, password: values.password };
    displayUrl = url.toString();
    defaultName = url.host;
  } else {
    const url = await checkedUrl(deps, values.url, 'ics_feed', 'body.url');
    creds = { kind: 'ics_feed', url: url.toString() };
    displayUrl = `${url.protocol}//${url.host}/…`;
    defaultName = `${url.host} feed`;
  }
  const id = uuid();
  const box = calendarSecretBox(deps.config);
  const row = await transactionWithOutbox(db, deps.outbox, async (trx, enqueue) => {
    const [inserted] = await trx('calendar_connections')
      .insert({
        id,
        team_id: principal.teamId,
        user_id: userId,
        kind: values.kind,
        name: values.name?.trim() || defaultName,
        display_url: displayUrl,
        credentials_enc: sealCredentials(box, id, creds),
        status: 'syncing',
      })
      .returning('*');
    const args: CalendarSyncInput = { connectionId: id, teamId: principal.teamId, userId };
    await enqueue({
      workflowType: 'calendarSyncWorkflow',
      workflowId: calendarSyncWorkflowId(id),
      args: [args],
      searchAttributes: { TeamId: principal.teamId, UserId: userId },
      memo: { kind: values.kind, host: new URL(creds.url).host },
      ...calendarSyncMetadata({
        id,
        teamId: principal.teamId,
        userId,
        name: inserted.name,
        kind: values.kind,
        host: new URL(creds.url).host,
      }),
    });
    return inserted as ConnectionRow;
  });
  return presentConnection(row, []);
}

export interface UpdateConnectionInput {
  principal: Principal;
  id: string;
  changes: PatchConnectionInput;
}

/** Every change is followed by a sync (signal-with-start: a workflow that is gone is started again). */
export async function updateConnection(deps: ServiceDeps, input: UpdateConnectionInput) {
  const { db } = deps;
  const { principal, id, changes } = input;
  const row = await db.transaction(async (trx) => {
    const conn = await connectionRow(trx, principal, id, true);
    const calendars = (await trx('calendar_connection_calendars').where({ connection_id: id })) as CalendarRow[];
    const byId = new Map(calendars.map((c) => [c.id, c]));
    const details = (changes.calendars ?? []).flatMap((c, i) =>
      byId.has(c.id) ? [] : [{ path: `body.calendars.${i}.id`, message: 'is not a calendar of this connection' }],
    );
    if (changes.booking_calendar_id) {
      const target = byId.get(changes.booking_calendar_id);
      if (!target) details.push({ path: 'body.booking_calendar_id', message: 'is not a calendar of this connection' });
      else if (target.read_only) details.push({ path: 'body.booking_calendar_id', message: 'this calendar is read-only on the server' });
      else if (!(WRITABLE_KINDS as string[]).includes(conn.kind))
        details.push({ path: 'body.booking_calendar_id', message: 'this kind of connection cannot receive bookings' });
    }
    if (details.length) throw validationFailed(details);
    if (changes.name !== undefined) {
      await trx('calendar_connections')
        .where({ id })
        .update({ name: changes.name.trim() || conn.name, updated_at: trx.fn.now() });
    }
    for (const c of changes.calendars ?? []) {
      await trx('calendar_connection_calendars')
        .where({ id: c.id })
        .update({ check_conflicts: c.check_conflicts, updated_at: trx.fn.now() });
    }
    if (changes.calendars?.length) await refreshUserBusy(trx, [conn.user_id]);
    if (changes.booking_calendar_id !== undefined) {
      // One booking calendar per user, across all their connections.
      await trx('calendar_connection_calendars')
        .where({ user_id: conn.user_id, is_booking_calendar: true })
        .modify((q) => void (changes.booking_calendar_id === null && q.where({ connection_id: id })))
        .update({ is_booking_calendar: false, updated_at: trx.fn.now() });
      if (changes.booking_calendar_id) {
        await trx('calendar_connection_calendars')
          .where({ id: changes.booking_calendar_id })
          .update({ is_booking_calendar: true, updated_at: trx.fn.now() });
      }
    }
    return (await trx('calendar_connections').where({ id }).first()) as ConnectionRow;
  });
  await requestSyncSoon(deps, row);
  return present(db, row);
}

/** Delete: its calendars, stored objects and cached busy time go with it (cascade); its workflow is told to stop. */
export async function deleteConnection(deps: ServiceDeps, input: { principal: Principal; id: string }): Promise<void> {
  const { principal, id } = input;
  const google = await deps.db.transaction(async (trx) => {
    const row = await connectionRow(trx, principal, id, true);
    if (row.kind === 'google' || row.kind === 'microsoft') {
      // The worker stops its channels or subscriptions (and revokes Google's token), then deletes the row
      // (google-channels.ts, microsoft-subscriptions.ts);
      // its busy time goes now.
      await trx('calendar_busy_times').where({ connection_id: id }).delete();
      await trx('calendar_objects').where({ connection_id: id }).delete();
      await trx('calendar_connections').where({ id }).update({ status: 'disconnecting', status_message: null, updated_at: trx.fn.now() });
    } else await trx('calendar_connections').where({ id }).delete();
    await refreshUserBusy(trx, [row.user_id]);
    return row.kind === 'google' || row.kind === 'microsoft' ? row : null;
  });
  if (google) {
    await requestSyncSoon(deps, google);
    return;
  }
  // Best effort: a lost signal is harmless, the next sync finds the connection gone and ends.
  await deps.outbox.signal(calendarSyncWorkflowId(id), calendarSyncStopSignal);
}

/**
 * Sync now: signal-with-start (a workflow that is gone is started again); the answer shows `syncing`
 * until the sync has run. When Temporal cannot be reached the reconcile starts it (docs/calendars.md).
 */
export async function requestSync(deps: ServiceDeps, input: { principal: Principal; id: string }) {
  const { db } = deps;
  const { principal, id } = input;
  await connectionRow(db, principal, id);
  const [row] = await db('calendar_connections')
    .where({ id })
    .update({ status: 'syncing', status_message: null, updated_at: db.fn.now() })
    .returning('*');
  if (!row) throw notFound('Calendar connection');
  await requestSyncSoon(deps, row as ConnectionRow);
  return present(db, row as ConnectionRow);
}
