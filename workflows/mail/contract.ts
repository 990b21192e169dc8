/** The inbound mail workflow's contract (imported by services and activities). */
export const inboundEmailWorkflowId = (inboundId: string) => `inbound-email-${inboundId}`;

export interface InboundEmailInput {
  inboundId: string;
}

export interface InboundEmailResult {
  kind: string;
  action: string;
}
