import type { Executor } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import { findPublishedForm, type FormRow } from './forms';
import type { Plan } from '../../core/scopes';

/**
 * The public submission endpoint reads the published form on every request; this per-process
 * cache keeps it for at most TTL_MS (only forms that were found: a form published a moment ago is
 * never hidden by a cached miss).
 *
 * Staleness rule: an edit or delete made through this process forgets the entry at once; one made
 * by another process is seen within TTL_MS for the *definition* (fields, settings, title). The
 * *status* is never stale for writes: the submission statement itself checks that the form is
 * still published (insertSubmission's `ok` guard), so an unpublished or deleted form gets 404.
 */
export const FORM_CACHE_TTL_MS = 1000;
const MAX_ENTRIES = 1000;

const caches = new WeakMap<object, Map<string, { form: FormRow; at: number }>>();

function cacheOf(db: Executor): Map<string, { form: FormRow; at: number }> {
  let c = caches.get(db);
  if (!c) {
    c = new Map();
    caches.set(db, c);
  }
  return c;
}

export async function findPublishedFormCached(deps: Pick<ServiceDeps, 'db'>, { idOrSlug }: { idOrSlug: string }): Promise<FormRow | null> {
  const key = idOrSlug.toLowerCase();
  const cache = cacheOf(deps.db);
  const hit = cache.get(key);
  const now = Date.now();
  if (hit && now - hit.at < FORM_CACHE_TTL_MS) return hit.form;
  const form = await findPublishedForm(deps, { idOrSlug });
  if (form) {
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, { form, at: now });
  } else {
    cache.delete(key);
  }
  return form;
}

/** Forget a form after this process changed or deleted it. */
export function forgetCachedForm(deps: Pick<ServiceDeps, 'db'>, { formId }: { formId: string }): void {
  const cache = caches.get(deps.db);
  if (!cache) return;
  for (const [key, entry] of cache) if (entry.form.id === formId) cache.delete(key);
}

const PLAN_TTL_MS = 60_000;
const plans = new WeakMap<object, Map<string, { plan: Plan; at: number }>>();

/**
 * The plan of the team behind a published form's public URL (the per-form budget scales with it,
 * api/http/rate-limit.ts `PLAN_TARGET_SCALE`), cached per process for a minute; null when no
 * published form has this id or slug.
 */
export async function publishedFormPlan(deps: Pick<ServiceDeps, 'db'>, { idOrSlug }: { idOrSlug: string }): Promise<Plan | null> {
  const form = await findPublishedFormCached(deps, { idOrSlug });
  if (!form) return null;
  let cache = plans.get(deps.db);
  if (!cache) plans.set(deps.db, (cache = new Map()));
  const hit = cache.get(form.team_id);
  if (hit && Date.now() - hit.at < PLAN_TTL_MS) return hit.plan;
  const team = await deps.db('teams').where({ id: form.team_id }).first('plan');
  const plan = (team?.plan ?? 'free') as Plan;
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(form.team_id, { plan, at: Date.now() });
  return plan;
}
