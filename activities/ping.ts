import { pingWorker } from '../services/health/check';
import type { ActivityDeps } from './deps';

export function pingActivities(deps: Pick<ActivityDeps, 'db'>) {
  return {
    /** Records that the worker ran, in the database it serves (services/health/check.ts). */
    async ping(token: string): Promise<string> {
      return pingWorker(deps, { token });
    },
  };
}
