import type { NoticeWaits } from '../db/notice-waits';
import type { ServiceDeps } from '../services/deps';
import type { OutboxStarter } from '../temporal/outbox';
import type { RateLimits } from './http/rate-limit';

/** Everything a handler may reach: the services' deps plus the HTTP edge's own. Built once per process (api/app.ts). */
export interface AppDeps extends ServiceDeps {
  /** The process's concrete starter (its relay runs in api/app.ts); services see only its port. */
  outbox: OutboxStarter;
  rateLimits: RateLimits;
  /** The LISTEN on CALENDAR_WRITTEN_CHANNEL the booking answer waits on (closed on shutdown). */
  calendarWrites: NoticeWaits;
  /** Reports whether Temporal answers (for /healthz). */
  temporalHealthy(): Promise<boolean>;
}
