/** The forms workflows' contract (imported by services and the workflow). */
export const submissionNotificationWorkflowId = (submissionId: string) => `form-notify-${submissionId}`;

export interface SubmissionNotificationInput {
  submissionId: string;
}
