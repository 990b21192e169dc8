import type { Executor } from '../../db/knex';
import type { Enqueue } from '../../temporal/outbox';
import { recordEvent, type EventType } from '../events/record';
import type { RoutingRecord } from '../../domain/routing';

export interface SubmissionForEvent {
  id: string;
  fields: Record<string, unknown>;
  submitted_at: Date | string;
  metadata: Record<string, unknown>;
  /** Completed quiz submissions only. */
  score?: number | null;
  max_score?: number | null;
  /** Where it was routed (`submission.routed` carries it). */
  routing?: RoutingRecord | null;
}

/** The spec's `submission.created` payload; the other submission events use the same shape. */
export function submissionPayload(
  type: EventType,
  form: { id: string; title: string; slug: string },
  s: SubmissionForEvent,
): Record<string, unknown> {
  return {
    event: type,
    timestamp: new Date().toISOString(),
    data: {
      form_id: form.id,
      form_title: form.title,
      form_slug: form.slug,
      submission_id: s.id,
      submission_data: s.fields,
      submitted_at: new Date(s.submitted_at).toISOString(),
      metadata: s.metadata,
      ...(s.score != null ? { score: s.score, max_score: s.max_score ?? null } : {}),
      ...(type === 'submission.routed' ? { routing: s.routing ?? null } : {}),
    },
  };
}

export interface SubmissionEventInput {
  type: EventType;
  teamId: string;
  form: { id: string; title: string; slug: string };
  submission: SubmissionForEvent;
}

export async function recordSubmissionEvent(
  trx: Executor,
  enqueue: Enqueue,
  { type, teamId, form, submission: s }: SubmissionEventInput,
): Promise<void> {
  await recordEvent(trx, enqueue, { teamId, type, formId: form.id, payload: submissionPayload(type, form, s) });
}
