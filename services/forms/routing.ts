import type { FieldValue, FormField } from '../../domain/form-fields';
import { routeAnswers, type Routing, type RoutingRecord } from '../../domain/routing';
import { publicUrl } from '../mail/render/links';
import type { ServiceDeps } from '../deps';
import { issuePrefillToken, prefillOf } from '../routing-token/prefill-token';
import type { FormRow } from './forms';

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

/** The public receipt's routing: for an event type, the booking URL with a signed prefill token (services/routing-token/), and the name and email. */
export async function receiptRouting(
  deps: Pick<ServiceDeps, 'db'>,
  input: { record: RoutingRecord; submissionId: string; fields: FormField[]; values: Record<string, FieldValue> },
) {
  const { record } = input;
  if (record.target !== 'event_type' || !record.booking_url) return record;
  const token = await issuePrefillToken(deps, { submissionId: input.submissionId });
  return {
    ...record,
    booking_url: `${record.booking_url}&prefill=${token}`,
    prefill_token: token,
    prefill: prefillOf(input.fields, input.values),
  };
}
