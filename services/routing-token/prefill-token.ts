import type { Executor } from '../../db/knex';
import { contactEmail, type FieldValue, type FormField } from '../../domain/form-fields';
import { signPrefillToken, verifyPrefillToken } from '../../domain/link-tokens';
import type { RoutingRecord } from '../../domain/routing';
import { appSecret } from '../app-secrets';
import type { ServiceDeps } from '../deps';

/**
 * The routing prefill token (docs/forms.md "Routing"): the contract between the form that routes a
 * submission to an event type (services/forms/routing.ts issues the token) and the booking step that
 * reads it (services/scheduling/routed.ts, routed-page.ts). Neither side imports the other.
 */

const SECRET = 'routing_prefill';
/** How long the booking step of a routed submission may be opened. */
export const PREFILL_TTL_MS = 2 * 3_600_000;

/** The name and email a booking step starts with, from the answers. */
export function prefillOf(fields: FormField[], values: Record<string, FieldValue>): { name: string | null; email: string | null } {
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : '');
  const name = str('name') || [str('first_name'), str('last_name')].filter(Boolean).join(' ');
  return { name: name ? name.slice(0, 200) : null, email: contactEmail(fields, values) };
}

/** A signed prefill token for a routed submission, valid for PREFILL_TTL_MS. */
export async function issuePrefillToken(deps: Pick<ServiceDeps, 'db'>, input: { submissionId: string }): Promise<string> {
  const key = await appSecret(deps, { name: SECRET });
  return signPrefillToken(key, input.submissionId, new Date(Date.now() + PREFILL_TTL_MS));
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
