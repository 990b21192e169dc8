import type { Executor } from '../../db/knex';
import { contactEmail, type FieldValue, type FormField } from '../../domain/form-fields';
import { signPrefillToken, verifyPrefillToken } from '../../domain/link-tokens';
import { routeAnswers, type Routing, type RoutingRecord } from '../../domain/routing';
import { appSecret } from '../app-secrets';
import { publicUrl } from '../mail/render/links';
import type { ServiceDeps } from '../deps';
import type { FormRow } from './forms';

const SECRET = 'routing_prefill';
/** How long the booking step of a routed submission may be opened (docs/forms.md "Routing"). */
export const PREFILL_TTL_MS = 2 * 3_600_000;

/** Whether routing applies: the form has rules, and the submission qualified when the form has qualification rules. */
function routes(form: FormRow, qualified: boolean): Routing | null {
  const routing = (form.settings.routing ?? null) as Routing | null;
  if (!routing) return null;
  const hasQualification = (form.settings.qualification?.rules?.length ?? 0) > 0;
  return hasQualification && !qualified ? null : routing;
}

/**
 * Route a completed submission: the first rule that holds (domain/routing.ts), else the fallback.
 * For an event type, the hosts (the target's subset, else the page's hosts) and the page's booking
 * URL are looked up once and recorded. Null when the form does not route this submission.
 */
export async function resolveRouting(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  input: { form: FormRow; values: Record<string, FieldValue>; qualified: boolean },
): Promise<RoutingRecord | null> {
  const routed = routeAnswers(routes(input.form, input.qualified), input.values);
  if (!routed) return null;
  const t = routed.target;
  const none = { event_type_id: null, host_user_ids: null, booking_url: null, url: null, message: null };
  if (t.type === 'url') return { ...none, target: 'url', rule: routed.rule, url: t.url };
  if (t.type === 'message') return { ...none, target: 'message', rule: routed.rule, message: t.message };
  const et = await deps
    .db('event_types as e')
    .join('scheduling_pages as p', 'p.id', 'e.scheduling_page_id')
    .where('e.id', t.event_type_id)
    .first<{ slug: string; page_id: string } | undefined>('p.slug', 'p.id as page_id');
  const hosts = t.host_user_ids
    ? t.host_user_ids
    : et
      ? (await deps.db('scheduling_page_hosts').where({ page_id: et.page_id }).orderBy('position').select('user_id')).map((h) => h.user_id)
      : [];
  const bookingUrl = et ? publicUrl(deps.config, `/book/${encodeURIComponent(et.slug)}?event_type=${t.event_type_id}`) : null;
  return {
    ...none,
    target: 'event_type',
    rule: routed.rule,
    event_type_id: t.event_type_id,
    host_user_ids: hosts,
    booking_url: bookingUrl,
  };
}

/** The name and email a booking step starts with, from the answers. */
export function prefillOf(fields: FormField[], values: Record<string, FieldValue>): { name: string | null; email: string | null } {
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : '');
  const name = str('name') || [str('first_name'), str('last_name')].filter(Boolean).join(' ');
  return { name: name ? name.slice(0, 200) : null, email: contactEmail(fields, values) };
}

/** The public receipt's routing: for an event type, the booking URL with a signed prefill token, and the name and email. */
export async function receiptRouting(
  deps: Pick<ServiceDeps, 'db'>,
  input: { record: RoutingRecord; submissionId: string; fields: FormField[]; values: Record<string, FieldValue> },
) {
  const { record } = input;
  if (record.target !== 'event_type' || !record.booking_url) return record;
  const key = await appSecret(deps, { name: SECRET });
  const token = signPrefillToken(key, input.submissionId, new Date(Date.now() + PREFILL_TTL_MS));
  return {
    ...record,
    booking_url: `${record.booking_url}&prefill=${token}`,
    prefill_token: token,
    prefill: prefillOf(input.fields, input.values),
  };
}

/** A routed submission, as a booking from its prefill token needs it. */
export interface RoutedSubmission {
  id: string;
  teamId: string;
  formId: string;
  formTitle: string;
  fields: Record<string, FieldValue>;
  contactId: string | null;
  routing: RoutingRecord;
  prefill: { name: string | null; email: string | null };
  /** The form follows up visitors who do not book (`settings.routing.unbooked`): a booking signals its workflow. */
  followsUp: boolean;
}

/** The routed submission behind a valid, unexpired prefill token; null for anything else. */
export async function readPrefillToken(db: Executor, { token, now = Date.now() }: { token: string; now?: number }) {
  const claims = verifyPrefillToken(await appSecret({ db }, { name: SECRET }), token, now);
  if (!claims) return null;
  const row = await db('submissions as s').join('forms as f', 'f.id', 's.form_id').where('s.id', claims.submissionId).first<
    | {
        id: string;
        team_id: string;
        form_id: string;
        title: string;
        fields: Record<string, FieldValue>;
        contact_id: string | null;
        routing: RoutingRecord | null;
        form_fields: FormField[];
        follows_up: boolean;
      }
    | undefined
  >('s.id', 's.team_id', 's.form_id', 'f.title', 's.fields', 's.contact_id', 's.routing', 'f.fields as form_fields', db.raw(`coalesce(jsonb_typeof(f.settings->'routing'->'unbooked') = 'object', false) AS follows_up`));
  if (!row?.routing || row.routing.target !== 'event_type') return null;
  const routed: RoutedSubmission = {
    id: row.id,
    teamId: row.team_id,
    formId: row.form_id,
    formTitle: row.title,
    fields: row.fields,
    contactId: row.contact_id,
    routing: row.routing,
    prefill: prefillOf(row.form_fields, row.fields),
    followsUp: row.follows_up,
  };
  return routed;
}
