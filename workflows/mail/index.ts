import { proxyActivities, setCurrentDetails } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { InboundEmailInput, InboundEmailResult } from './contract';

// Postgres may be down for a while: retried with backoff; the stored message waits.
const { processInboundEmail } = proxyActivities<Pick<Activities, 'processInboundEmail'>>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10m' },
});

/**
 * `inbound-email-<id>`: classify one stored inbound message (bounce, complaint, auto-reply,
 * reply) and act on the sequence send it answers. The activity is idempotent (it records
 * `processed_at` in the same transaction as its effects).
 */
export async function inboundEmailWorkflow(input: InboundEmailInput): Promise<InboundEmailResult> {
  setCurrentDetails('classifying the stored message (bounce, complaint, auto-reply, reply)');
  return processInboundEmail(input);
}
