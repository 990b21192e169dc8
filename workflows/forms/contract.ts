/** The forms workflows' contract (imported by services and the workflow). */
export const submissionNotificationWorkflowId = (submissionId: string) => `form-notify-${submissionId}`;

export interface SubmissionNotificationInput {
  submissionId: string;
}

/** The start signatures of this feature's workflows (workflows/starts.ts: the outbox's type map). */
export interface FormsStarts {
  submissionNotificationWorkflow(input: SubmissionNotificationInput): Promise<number>;
}
