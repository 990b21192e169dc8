import type { AppsRow } from '../../db/tables';
import { randomToken, sha256Hex } from '../../core/crypto';
import type { Executor } from '../../db/knex';
import { decodeIcon, readPngHeader, type AppDraft, type PngInfo } from '../../domain/app-checklist';
import { notFound, validationFailed } from '../../core/errors';
import { paginate, type Page } from '../pagination';
import type { ServiceDeps } from '../deps';

export const CLIENT_ID_PREFIX = 'svc_ci_';
export const CLIENT_SECRET_PREFIX = 'svc_cs_';

/** The fields a review approves: the listed version of an app is a copy of them (`apps.live`). */
export const LIVE_FIELDS = [
  'name',
  'description',
  'short_description',
  'website_url',
  'privacy_policy_url',
  'terms_url',
  'documentation_url',
  'category',
  'redirect_uris',
  'scopes',
  'screenshots',
] as const;

export type AppLive = Pick<AppsRow, (typeof LIVE_FIELDS)[number]>;

/** An app as its team sees it: every column but the secret hash and the icon bytes, with its install count. */
export type AppRow = Omit<AppsRow, 'client_secret_hash' | 'icon_png' | 'live'> & { live: AppLive | null; installs?: number };

/** Every column but the secret hash and the icon bytes. */
export const APP_COLUMNS = [
  'id',
  'team_id',
  'created_by',
  ...LIVE_FIELDS,
  'icon_width',
  'icon_height',
  'icon_bytes',
  'client_id',
  'status',
  'review_stage',
  'review_round',
  'live',
  'submitted_at',
  'approved_at',
  'created_at',
  'updated_at',
].map((c) => `apps.${c}`);

export function iconInfo(row: Pick<AppRow, 'icon_width' | 'icon_height' | 'icon_bytes'>): PngInfo | null {
  return row.icon_bytes === null ? null : { width: row.icon_width ?? 0, height: row.icon_height ?? 0, bytes: row.icon_bytes };
}

export function toDraft(row: AppRow): AppDraft {
  return { ...row, icon: iconInfo(row) };
}

export function presentApp(row: AppRow, baseUrl: string) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    short_description: row.short_description,
    website_url: row.website_url,
    privacy_policy_url: row.privacy_policy_url,
    terms_url: row.terms_url,
    documentation_url: row.documentation_url,
    category: row.category,
    redirect_uris: row.redirect_uris,
    scopes: row.scopes,
    screenshots: row.screenshots,
    icon: iconInfo(row),
    icon_url: row.icon_bytes === null ? null : `${baseUrl}/api/marketplace/apps/${row.id}/icon.png`,
    client_id: row.client_id,
    status: row.status,
    review_stage: row.review_stage,
    review_round: row.review_round,
    listed: row.live !== null,
    installs: Number(row.installs ?? 0),
    submitted_at: row.submitted_at,
    approved_at: row.approved_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A high-entropy secret (256 bits); only its SHA-256 hash is stored. */
export function newClientSecret(): string {
  return `${CLIENT_SECRET_PREFIX}${randomToken(32)}`;
}

export const installsCount = (db: Executor) =>
  db.raw(`(select count(*) from app_installs i where i.app_id = apps.id and i.revoked_at is null)::int as installs`);

/** Icon (data URL or base64) → the columns to store; a non-PNG gets a 400. */
export function iconColumns(icon: string | null) {
  if (icon === null) return { icon_png: null, icon_width: null, icon_height: null, icon_bytes: null };
  const buf = decodeIcon(icon);
  const info = buf ? readPngHeader(buf) : null;
  if (!buf || !info) throw validationFailed([{ path: 'body.icon', message: 'must be a PNG image as a data URL or base64' }]);
  return { icon_png: buf, icon_width: info.width, icon_height: info.height, icon_bytes: info.bytes };
}

export async function getTeamApp(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }): Promise<AppRow> {
  const { db } = deps;
  const row = await db('apps')
    .where('apps.id', id)
    .where('apps.team_id', teamId)
    .first<AppRow>([...APP_COLUMNS, installsCount(db)]);
  if (!row) throw notFound('App');
  return row;
}

export async function getAppById(db: Executor, id: string): Promise<AppRow | undefined> {
  return db('apps')
    .where('apps.id', id)
    .first<AppRow>([...APP_COLUMNS, installsCount(db)]);
}

export interface AppInput {
  name: string;
  description: string;
  website_url: string;
  redirect_uris: string[];
  scopes: string[];
  short_description?: string | null;
  privacy_policy_url?: string | null;
  terms_url?: string | null;
  documentation_url?: string | null;
  category?: string | null;
  screenshots?: string[];
  icon?: string | null;
}

export interface CreateAppInput {
  teamId: string;
  userId: string;
  values: AppInput;
}

export async function createApp(deps: Pick<ServiceDeps, 'db'>, { teamId, userId, values: input }: CreateAppInput) {
  const { db } = deps;
  const secret = newClientSecret();
  const { icon, ...fields } = input;
  const [row] = await db('apps')
    .insert({
      ...fields,
      ...(icon !== undefined ? iconColumns(icon) : {}),
      screenshots: input.screenshots ?? [],
      team_id: teamId,
      created_by: userId,
      client_id: `${CLIENT_ID_PREFIX}${randomToken(16)}`,
      client_secret_hash: sha256Hex(secret),
    })
    .returning(APP_COLUMNS.map((c) => c.replace('apps.', '')));
  return { app: { ...row, installs: 0 } as AppRow, secret };
}

export async function rotateSecret(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }) {
  const { db } = deps;
  const secret = newClientSecret();
  const n = await db('apps')
    .where({ id, team_id: teamId })
    .update({ client_secret_hash: sha256Hex(secret), updated_at: db.fn.now() });
  if (!n) throw notFound('App');
  return { app: await getTeamApp(deps, { teamId, id }), secret };
}

/** Deleting an app deletes its codes, tokens and installs (cascade): every token stops working. */
export async function deleteApp(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }): Promise<void> {
  const { db } = deps;
  const n = await db('apps').where({ id, team_id: teamId }).delete();
  if (!n) throw notFound('App');
}

/** The team's apps (developer portal), newest first, with their install counts. */
export function listTeamApps(deps: Pick<ServiceDeps, 'db' | 'config'>, input: { teamId: string; page: Page }) {
  const base = deps
    .db('apps')
    .where('apps.team_id', input.teamId)
    .select<AppRow[]>([...APP_COLUMNS, installsCount(deps.db)]);
  return paginate(
    base,
    input.page,
    [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ],
    (r: AppRow) => presentApp(r, deps.config.baseUrl),
  );
}
