/** The inbound mail workflow's contract (imported by services and activities). */
export const inboundEmailWorkflowId = (inboundId: string) => `inbound-email-${inboundId}`;

export interface InboundEmailInput {
  inboundId: string;
}

export interface InboundEmailResult {
  kind: string;
  action: string;
}

/** The start signatures of this feature's workflows (workflows/starts.ts: the outbox's type map). */
export interface MailStarts {
  inboundEmailWorkflow(input: InboundEmailInput): Promise<InboundEmailResult>;
}
