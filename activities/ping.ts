import type { ActivityDeps } from './deps';

export function pingActivities(deps: ActivityDeps) {
  return {
    /** Records that the worker ran, in the database it serves. */
    async ping(token: string): Promise<string> {
      await deps.db.raw('select 1');
      return `pong:${token}`;
    },
  };
}
