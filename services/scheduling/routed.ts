import type { Executor } from '../../db/knex';
import { jsonb } from '../../db/jsonb';
import { validationFailed } from '../../core/errors';
import { readPrefillToken, type RoutedSubmission } from '../routing-token/prefill-token';

/**
 * The routed submission a booking or slot lookup names by its prefill token (docs/forms.md
 * "Routing"): valid, unexpired, and routed to this event type; otherwise a 400 on `path`.
 */
export async function routedSubmission(
  db: Executor,
  { token, eventTypeId, path }: { token: string; eventTypeId: string | undefined; path: string },
): Promise<RoutedSubmission> {
  const routed = await readPrefillToken(db, { token });
  if (!routed) throw validationFailed([{ path, message: 'is not a valid routing token, or it expired' }]);
  if (routed.routing.event_type_id !== eventTypeId)
    throw validationFailed([{ path, message: 'the submission was routed to another event type' }]);
  return routed;
}

/** A routed booking's own columns: its submission, form and source, and the answers in field_values. */
export function routedColumns(routed: RoutedSubmission, fieldValues: Record<string, unknown>) {
  return {
    submission_id: routed.id,
    form_id: routed.formId,
    source: 'routing' as const,
    field_values: jsonb<Record<string, unknown>>({ ...routed.fields, ...fieldValues }),
  };
}
