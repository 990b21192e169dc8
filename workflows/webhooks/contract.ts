/** The webhook delivery workflow's contract: id and input (imported by services, activities and the workflow). */
/** What the delivery workflow is started with (also its memo). */
export interface DeliveryWorkflowInput {
  deliveryId: string;
  subscriptionId: string;
  teamId: string;
  eventType: string;
  trigger: 'event' | 'manual' | 'test';
}

export function deliveryWorkflowId(subscriptionId: string, eventId: string, manualRetry = 0): string {
  return `webhook-${subscriptionId}-${eventId}${manualRetry > 0 ? `-retry-${manualRetry}` : ''}`;
}
