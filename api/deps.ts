import type { ServiceDeps } from '../services/deps';
import type { RateLimits } from './http/rate-limit';

/** Everything a handler may reach: the services' deps plus the HTTP edge's own. Built once per process (api/app.ts). */
export interface AppDeps extends ServiceDeps {
  rateLimits: RateLimits;
  /** Reports whether Temporal answers (for /healthz). */
  temporalHealthy(): Promise<boolean>;
}
