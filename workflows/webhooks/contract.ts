/** The webhook delivery workflow's contract: id and input (imported by services, activities and the workflow). */
/** What the delivery workflow is started with (also its memo). */
export interface DeliveryWorkflowInput {
  deliveryId: string;
  subscriptionId: string;
  teamId: string;
  eventType: string;
  trigger: 'event' | 'manual' | 'test';
}

/** Where a (continued) run picks the schedule up. */
export interface DeliveryWorkflowState {
  retryIndex: number;
  seq: number;
  /**
   * Set when the relay made the first attempt (docs/webhooks.md "First attempt"): the time of
   * the next attempt on the schedule (the workflow sleeps until then), or the delivery's final
   * outcome when nothing is left to try (a 410, or a schedule of one attempt).
   */
  resumeAtMs?: number;
  finished?: 'failed' | 'gone';
}

export function deliveryWorkflowId(subscriptionId: string, eventId: string, manualRetry = 0): string {
  return `webhook-${subscriptionId}-${eventId}${manualRetry > 0 ? `-retry-${manualRetry}` : ''}`;
}

/** The start signatures of this feature's workflows (workflows/starts.ts: the outbox's type map). */
export interface WebhooksStarts {
  webhookDeliveryWorkflow(input: DeliveryWorkflowInput, state?: DeliveryWorkflowState): Promise<string>;
}
