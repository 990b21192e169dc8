/** Types used by the generated db/tables.ts. */
export type { Role, Scope } from '../core/scopes';
export type { AttemptClass } from '../domain/webhook-retry';
export type { AvailabilityRule } from '../domain/slots/types';
export type { FieldValue, FormField } from '../domain/form-fields';
export type { MeetingAiNotes, MeetingRecording } from '../domain/meeting-followup';

/**
 * A jsonb column: free-form JSON that each reader narrows (a presenter, a zod schema). Writers
 * pass JSON.stringify(...) so that arrays stay JSON (pg would send a JS array as a Postgres array).
 */
export type Json = any;
export type { RoutingRecord } from '../domain/routing';
export type { Skipped as SkippedComponent } from '../domain/calendars/ics-repair';
