/** Why an enrollment ended (DESIGN.md §3 "Sequences"), with the friendly label shown on a contact. */
export const EXIT_REASONS = [
  'completed',
  'meeting_booked',
  'added_to_other_sequence',
  'unsubscribed',
  'unenrolled',
  'email_bounced',
  'replied',
  'email_complained',
  'contact_deleted',
  'sequence_archived',
] as const;
export type ExitReason = (typeof EXIT_REASONS)[number];

/** Why a contact was not enrolled. */
export const SKIP_REASONS = [
  'already_enrolled',
  'unsubscribed',
  'meeting_already_booked',
  'missing_email',
  'email_undeliverable',
  'missing_phone',
  'sms_not_configured',
  'sequence_not_active',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

const LABELS: Record<Exclude<ExitReason, 'added_to_other_sequence'>, string> = {
  completed: 'Finished all steps',
  meeting_booked: 'Booked a meeting',
  unsubscribed: 'Unsubscribed',
  unenrolled: 'Removed from the sequence',
  email_bounced: 'Email bounced',
  replied: 'Replied to an email',
  email_complained: 'Marked an email as spam',
  contact_deleted: 'Contact deleted',
  sequence_archived: 'Sequence archived',
};

/** The friendly label of an exit reason; `added_to_other_sequence` names the other sequence. */
export function exitReasonLabel(reason: string | null | undefined, detail?: { sequence_name?: string } | null): string | null {
  if (!reason) return null;
  if (reason === 'added_to_other_sequence') return `Added to sequence ${detail?.sequence_name ?? '(deleted)'}`;
  return LABELS[reason as keyof typeof LABELS] ?? reason;
}

export function isExitReason(s: string): s is ExitReason {
  return (EXIT_REASONS as readonly string[]).includes(s);
}
