import type { WorkflowStart } from '../../temporal/outbox';
import { ENROLLMENT_CODE_VERSION, enrollmentWorkflowId } from '../../workflows/sequences/contract';
import { code, detailsMarkdown, oneLine } from '../operators/metadata';
import type { EnrollmentRow, SequenceRow } from './present';

export interface EnrollmentStartInput {
  seq: Pick<SequenceRow, 'id' | 'team_id' | 'name'>;
  enrollment: Pick<EnrollmentRow, 'id' | 'contact_id'>;
  email: string | null;
  /** Live steps of the sequence at enrollment. */
  steps: number;
  /** `ContactEmailKey` of an address (services/operators/email-key.ts). */
  emailKey: (email: string) => string;
}

/**
 * The enrollment workflow's start: search attributes (ContactEmailKey among them), memo, and the
 * summary operators read: `Onboarding → ada@example.com (5 steps)` (docs/operators.md).
 */
export function enrollmentStart(input: EnrollmentStartInput): WorkflowStart<'sequenceEnrollmentWorkflow'> {
  const { seq, enrollment: e, email, steps, emailKey } = input;
  const who = email ?? `contact ${e.contact_id}`;
  return {
    workflowType: 'sequenceEnrollmentWorkflow',
    workflowId: enrollmentWorkflowId(e.id),
    args: [{ enrollmentId: e.id, version: ENROLLMENT_CODE_VERSION }],
    searchAttributes: {
      TeamId: seq.team_id,
      SequenceId: seq.id,
      ContactId: e.contact_id,
      EnrollmentStatus: 'active',
      ...(email ? { ContactEmailKey: emailKey(email) } : {}),
    },
    memo: { sequence_name: seq.name, contact_email: email },
    summary: oneLine(`${oneLine(seq.name, 60)} → ${who} (${steps} step${steps === 1 ? '' : 's'})`),
    details: detailsMarkdown(`Enrollment of ${who} in ${seq.name}`, [
      ['Enrollment', `${code(e.id)}: \`/api/v1/sequences/${seq.id}/enrollments/${e.id}\``],
      ['Sequence', `${code(seq.id)}: \`/api/v1/sequences/${seq.id}\``],
      ['Contact', `${code(e.contact_id)}: \`/api/v1/contacts/${e.contact_id}\``],
      ['Team', code(seq.team_id)],
      ['Signals', '`exit` {reason} stops it; `resume` re-checks a step held by a pause'],
    ]),
  };
}
