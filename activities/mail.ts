import { processInboundEmail } from '../services/mail/inbound';
import type { InboundEmailInput, InboundEmailResult } from '../workflows/mail/contract';
import type { ActivityDeps } from './deps';

/** Activities of inbound mail: adapters of services/mail/inbound.ts. */
export function mailActivities(deps: ActivityDeps) {
  return {
    processInboundEmail: (input: InboundEmailInput): Promise<InboundEmailResult> => processInboundEmail(deps, input),
  };
}
