/** A domain event: what happened in a team, recorded and fanned out to webhooks (services/events.ts). */
export type EventType =
  | 'submission.created'
  | 'submission.qualified'
  | 'submission.routed'
  | 'submission.updated'
  | 'submission.deleted'
  | 'meeting.booked'
  | 'email.replied'
  | 'meeting.recording_ready'
  | 'meeting.notes_ready'
  | 'webhook.test';

export interface DomainEvent {
  id: string;
  teamId: string;
  type: EventType;
  formId: string | null;
  /** The webhook body: `{event, timestamp, data}` as the spec shows for submission.created. */
  payload: Record<string, unknown>;
}
