import type { AccountsStarts } from './accounts/contract';
import type { AppReviewStarts } from './app-review/contract';
import type { CalendarsStarts } from './calendars/contract';
import type { FormsStarts } from './forms/contract';
import type { MailStarts } from './mail/contract';
import type { MaintenanceStarts } from './maintenance/contract';
import type { SchedulingStarts } from './scheduling/contract';
import type { SequencesStarts } from './sequences/contract';
import type { WebhooksStarts } from './webhooks/contract';

/** The diagnostic workflow of workflows/ping.ts. */
interface PingStarts {
  pingWorkflow(token: string): Promise<string>;
}

/**
 * Every workflow the worker runs, by name, with its start signature, declared by the features'
 * contracts: the typed outbox (temporal/outbox.ts) checks each start against it. That the
 * workflows themselves have exactly these signatures, and that none is missing, is a compile-time
 * check in test/foundation/outbox-types.test.ts.
 */
export type WorkflowStarts = AccountsStarts &
  AppReviewStarts &
  CalendarsStarts &
  FormsStarts &
  MailStarts &
  MaintenanceStarts &
  PingStarts &
  SchedulingStarts &
  SequencesStarts &
  WebhooksStarts;
