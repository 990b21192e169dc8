import { jsonb } from '../../db/jsonb';
import type { FormsRow } from '../../db/tables';
import type { ServiceDeps } from '../deps';
import type { FormField } from '../../domain/form-fields';
import type { Qualification } from '../../domain/qualification';
import type { Routing } from '../../domain/routing';
import { conflict, notFound, validationFailed } from '../../core/errors';
import { validateFormLogic } from '../../domain/form-logic';
import { paginate, type Page } from '../pagination';
import { zUuid } from '../../core/validate';
import { normalizeFields, presentField } from './fields';
import type { CreateFormInput, SettingsInput, UpdateFormInput } from './schemas';
import { freeSlug } from './slug';
import { checkRouting } from './routing-check';

export interface FormSettings {
  redirect_url?: string | null;
  success_message?: string | null;
  submit_label?: string | null;
  /** Quiz forms: show the score on the thank-you page. */
  show_score?: boolean;
  notify_emails?: string[];
  qualification?: Qualification | null;
  /** Origins allowed to frame the embedded form; null/absent = anyone, [] = nobody. */
  embed_allowed_origins?: string[] | null;
  /** Routing rules (domain/routing.ts, docs/forms.md "Routing"). */
  routing?: Routing | null;
}

export type FormRow = FormsRow;

export function presentFormSummary(f: FormRow) {
  return { id: f.id, title: f.title, slug: f.slug, type: f.type, status: f.status, created_at: f.created_at, updated_at: f.updated_at };
}

export function presentSettings(s: FormSettings) {
  return {
    redirect_url: s.redirect_url ?? null,
    success_message: s.success_message ?? null,
    submit_label: s.submit_label ?? null,
    notify_emails: s.notify_emails ?? [],
    qualification: s.qualification ?? null,
    embed_allowed_origins: s.embed_allowed_origins ?? null,
    routing: s.routing ?? null,
    ...(s.show_score !== undefined ? { show_score: s.show_score } : {}),
  };
}

/** Steps and logic rules must hold together (domain/form-logic.ts); 400 with a detail per problem. */
function checkLogic(type: string, fields: FormField[]): FormField[] {
  const issues = validateFormLogic(fields, type !== 'standard');
  if (issues.length)
    throw validationFailed(
      issues.map((i) => ({ path: `body.${i.path}`, message: i.message })),
      "The form's steps or logic rules are not valid",
    );
  return fields;
}

export function presentForm(f: FormRow) {
  return {
    id: f.id,
    title: f.title,
    slug: f.slug,
    description: f.description,
    type: f.type,
    status: f.status,
    fields: f.fields.map(presentField),
    settings: presentSettings(f.settings),
    created_at: f.created_at,
    updated_at: f.updated_at,
  };
}

/** Unique violations become 409s that say which slug rule was hit. */
async function slugGuard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err as { code?: string; constraint?: string };
    if (e.code === '23505' && e.constraint === 'forms_published_slug_uq') {
      throw conflict('Another published form already uses this slug; public slugs are unique. Choose another slug');
    }
    if (e.code === '23505') throw conflict('The team already has a form with this slug');
    throw err;
  }
}

function mergeSettings(current: FormSettings, patch: SettingsInput | undefined): FormSettings {
  if (!patch) return current;
  const next: FormSettings = { ...current };
  for (const [k, v] of Object.entries(patch)) if (v !== undefined) (next as Record<string, unknown>)[k] = v;
  return next;
}

export async function createForm(
  deps: Pick<ServiceDeps, 'db'>,
  { teamId, values: input }: { teamId: string; values: CreateFormInput },
): Promise<FormRow> {
  const { db } = deps;
  const title = (input.title ?? input.name) as string;
  const slug = input.slug ?? (await freeSlug(db, { teamId, title }));
  const status = input.status ?? 'draft';
  const fields = checkLogic(input.type ?? 'standard', normalizeFields(input.fields ?? []));
  const settings = mergeSettings({}, input.settings);
  await checkRouting(db, { teamId, fields, routing: settings.routing });
  return slugGuard(async () => {
    const [row] = await db('forms')
      .insert({
        team_id: teamId,
        title,
        slug,
        description: input.description ?? '',
        type: input.type ?? 'standard',
        status,
        fields: jsonb(fields),
        settings: JSON.stringify(settings),
        published_at: status === 'published' ? db.fn.now() : null,
      })
      .returning('*');
    return row as FormRow;
  });
}

export async function getForm(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }): Promise<FormRow> {
  const { db } = deps;
  const row = await db('forms').where({ id, team_id: teamId }).first();
  if (!row) throw notFound('Form');
  return row;
}

export interface ListFormsInput {
  teamId: string;
  page: Page;
  status?: FormRow['status'];
}

export async function listForms(deps: Pick<ServiceDeps, 'db'>, input: ListFormsInput) {
  const { db } = deps;
  const { teamId, page, status } = input;
  const q = db('forms').where({ team_id: teamId }).select('id', 'title', 'slug', 'type', 'status', 'created_at', 'updated_at');
  if (status) q.where({ status });
  return paginate(
    q,
    page,
    [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ],
    presentFormSummary,
  );
}

export interface UpdateFormRequest {
  teamId: string;
  id: string;
  changes: UpdateFormInput;
}

export async function updateForm(deps: Pick<ServiceDeps, 'db'>, { teamId, id, changes: input }: UpdateFormRequest): Promise<FormRow> {
  const { db } = deps;
  return db.transaction(async (trx) => {
    const current = await trx('forms').where({ id, team_id: teamId }).forUpdate().first();
    if (!current) throw notFound('Form');
    const set: Record<string, unknown> = { updated_at: trx.fn.now() };
    const title = input.title ?? input.name;
    if (title !== undefined) set.title = title;
    if (input.slug !== undefined) set.slug = input.slug;
    if (input.description !== undefined) set.description = input.description ?? '';
    if (input.type !== undefined) set.type = input.type;
    if (input.status !== undefined) {
      set.status = input.status;
      if (input.status === 'published' && current.status !== 'published') set.published_at = trx.fn.now();
    }
    let fields: FormField[] = current.fields;
    if (input.fields !== undefined || input.type !== undefined) {
      fields = input.fields !== undefined ? normalizeFields(input.fields, current.fields) : current.fields;
      set.fields = JSON.stringify(checkLogic(input.type ?? current.type, fields));
    }
    const settings = mergeSettings(current.settings, input.settings);
    if (input.settings !== undefined) set.settings = JSON.stringify(settings);
    if (input.settings?.routing !== undefined || input.fields !== undefined)
      await checkRouting(trx, { teamId, fields, routing: settings.routing });
    return slugGuard(async () => {
      const [row] = await trx('forms').where({ id, team_id: teamId }).update(set).returning('*');
      return row as FormRow;
    });
  });
}

/** Deletes the form with its submissions and page views. */
export async function deleteForm(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }): Promise<void> {
  const { db } = deps;
  await db.transaction(async (trx) => {
    const n = await trx('forms').where({ id, team_id: teamId }).delete();
    if (n === 0) throw notFound('Form');
    await trx('submission_counts').where({ form_id: id }).delete();
  });
}

/**
 * The published form behind a public URL: its id (always accepted) or its slug (unique among
 * published forms). Drafts and archived forms are not found.
 */
export async function findPublishedForm(deps: Pick<ServiceDeps, 'db'>, { idOrSlug }: { idOrSlug: string }): Promise<FormRow | null> {
  const { db } = deps;
  const q = db('forms').where({ status: 'published' });
  if (zUuid.safeParse(idOrSlug).success) q.where({ id: idOrSlug });
  else q.where({ slug: idOrSlug.toLowerCase() });
  return (await q.first()) ?? null;
}
