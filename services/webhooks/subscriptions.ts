import type { WebhookSubscriptionsRow } from '../../db/tables';
import type { Executor } from '../../db/knex';
import { generateWebhookSecret } from '../../domain/webhook-signature';
import { notFound, validationFailed } from '../../core/errors';
import { paginate, type Page } from '../pagination';
import type { UrlPolicy } from '../../domain/ssrf';
import { checkSubscriptionUrl } from '../../core/outbound-http';
import { webhookUrlPolicy, type Config } from '../../core/config';
import type { ServiceDeps } from '../deps';
import { openWebhookSecret, sealWebhookSecret, type SecretKeyConfig } from './secrets';
import { uuid } from '../../core/crypto';

/** What a use case that checks a webhook URL needs: the database and the URL policy's settings. */
export type UrlCheckDeps = Pick<ServiceDeps, 'db'> & {
  config: Pick<Config, 'ALLOW_LOOPBACK_WEBHOOK_URLS' | 'ALLOW_PRIVATE_WEBHOOK_URLS'> & SecretKeyConfig;
};

export const WEBHOOK_EVENTS = [
  'submission.created',
  'submission.qualified',
  'submission.routed',
  'submission.updated',
  'submission.deleted',
  'meeting.booked',
  'email.replied',
  'meeting.recording_ready',
  'meeting.notes_ready',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** How long the old secret keeps signing beside the new one after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export type SubscriptionRow = WebhookSubscriptionsRow;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The API shape. The secret is never part of it (only create and rotate add it). */
export function presentSubscription(r: SubscriptionRow) {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    events: r.events,
    form_id: r.form_id,
    status: r.status,
    disabled_reason: r.disabled_reason,
    disabled_at: iso(r.disabled_at),
    failing_since: iso(r.failing_since),
    last_success_at: iso(r.last_success_at),
    previous_secret_expires_at:
      r.previous_secret_expires_at && r.previous_secret_expires_at > new Date() ? iso(r.previous_secret_expires_at) : null,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

async function validUrl(url: string, policy: UrlPolicy): Promise<string> {
  const r = await checkSubscriptionUrl(url, policy);
  if (!r.ok) throw validationFailed([{ path: 'body.url', message: r.reason }]);
  return r.url;
}

async function assertFormOfTeam(db: Executor, teamId: string, formId: string | null | undefined): Promise<void> {
  if (!formId) return;
  const form = await db('forms').where({ id: formId, team_id: teamId }).first('id');
  if (!form) throw notFound('Form');
}

export async function getSubscriptionRow(
  deps: Pick<ServiceDeps, 'db'>,
  { teamId, id }: { teamId: string; id: string },
): Promise<SubscriptionRow> {
  const row = await deps.db('webhook_subscriptions').where({ id, team_id: teamId }).first();
  if (!row) throw notFound('Webhook');
  return row;
}

export interface CreateInput {
  url: string;
  events: WebhookEventName[];
  form_id?: string | null;
  description?: string;
  status?: 'active' | 'disabled';
}

export async function createSubscription(deps: UrlCheckDeps, { teamId, values: input }: { teamId: string; values: CreateInput }) {
  const { db } = deps;
  const url = await validUrl(input.url, webhookUrlPolicy(deps.config));
  await assertFormOfTeam(db, teamId, input.form_id);
  const secret = generateWebhookSecret();
  const disabled = input.status === 'disabled';
  const id = uuid();
  const [row] = await db('webhook_subscriptions')
    .insert({
      id,
      team_id: teamId,
      url,
      description: input.description ?? '',
      events: [...new Set(input.events)],
      form_id: input.form_id ?? null,
      status: input.status ?? 'active',
      disabled_reason: disabled ? 'manual' : null,
      disabled_at: disabled ? new Date() : null,
      secret_enc: sealWebhookSecret(deps.config, { id, secret, which: 'current' }),
    } as never)
    .returning('*');
  return { ...presentSubscription(row), secret };
}

export interface ListSubscriptionsInput {
  teamId: string;
  page: Page;
  status?: 'active' | 'disabled';
}

export async function listSubscriptions(deps: Pick<ServiceDeps, 'db'>, { teamId, page, status }: ListSubscriptionsInput) {
  const { db } = deps;
  const base = db('webhook_subscriptions').where({ team_id: teamId });
  if (status) base.andWhere({ status });
  return paginate(
    base.select('*'),
    page,
    [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ],
    presentSubscription,
  );
}

export type UpdateInput = Partial<CreateInput>;

export interface UpdateSubscriptionInput {
  teamId: string;
  id: string;
  changes: UpdateInput;
}

export async function updateSubscription(deps: UrlCheckDeps, { teamId, id, changes: input }: UpdateSubscriptionInput) {
  const { db } = deps;
  const current = await getSubscriptionRow(deps, { teamId, id });
  const patch: Record<string, unknown> = {};
  if (input.url !== undefined) patch.url = await validUrl(input.url, webhookUrlPolicy(deps.config));
  if (input.events !== undefined) patch.events = [...new Set(input.events)];
  if (input.form_id !== undefined) {
    await assertFormOfTeam(db, teamId, input.form_id);
    patch.form_id = input.form_id;
  }
  if (input.description !== undefined) patch.description = input.description;
  if (input.status !== undefined && input.status !== current.status) {
    patch.status = input.status;
    if (input.status === 'active') Object.assign(patch, { disabled_reason: null, disabled_at: null, failing_since: null });
    else Object.assign(patch, { disabled_reason: 'manual', disabled_at: new Date() });
  }
  if (Object.keys(patch).length === 0) return presentSubscription(current);
  const [row] = await db('webhook_subscriptions')
    .where({ id, team_id: teamId })
    .update({ ...patch, updated_at: new Date() } as never)
    .returning('*');
  return presentSubscription(row);
}

export async function deleteSubscription(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }): Promise<void> {
  const { db } = deps;
  const n = await db('webhook_subscriptions').where({ id, team_id: teamId }).delete();
  if (n === 0) throw notFound('Webhook');
}

/** New secret; the old one keeps signing (as the second signature) for 24 h. */
export async function rotateSecret(
  deps: Pick<ServiceDeps, 'db'> & { config: SecretKeyConfig },
  { teamId, id }: { teamId: string; id: string },
): Promise<ReturnType<typeof presentSubscription> & { secret: string }> {
  const { db, config } = deps;
  const current = await getSubscriptionRow(deps, { teamId, id });
  const secret = generateWebhookSecret();
  const previous = openWebhookSecret(config, { id, sealed: current.secret_enc, which: 'current' });
  const [row] = await db('webhook_subscriptions')
    .where({ id, team_id: teamId, secret_enc: current.secret_enc })
    .update({
      secret_enc: sealWebhookSecret(config, { id, secret, which: 'current' }),
      previous_secret_enc: sealWebhookSecret(config, { id, secret: previous, which: 'previous' }),
      previous_secret_expires_at: new Date(Date.now() + ROTATION_OVERLAP_MS),
      updated_at: new Date(),
    } as never)
    .returning('*');
  if (!row) return rotateSecret(deps, { teamId, id }); // a concurrent rotation won: rotate again on top of it
  return { ...presentSubscription(row), secret };
}
