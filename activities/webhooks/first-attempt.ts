import type { DirectHandler } from '../../temporal/outbox-direct';
import { makeFirstAttempt } from '../../services/webhooks/first-attempt';
import type { ActivityDeps } from '../deps';

/** The relay's direct handler of a webhook delivery's outbox row: its first attempt (services/webhooks/first-attempt.ts). */
export function webhookFirstAttempt(deps: Pick<ActivityDeps, 'db' | 'config'>): DirectHandler<'webhookDeliveryWorkflow'> {
  return (row) =>
    makeFirstAttempt(deps, {
      workflowId: row.workflowId,
      lease: row.lease,
      signal: row.signal,
      delivery: row.args[0],
    });
}
