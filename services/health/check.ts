import type { ServiceDeps } from '../deps';

/** One trivial query: resolves when PostgreSQL answers, rejects (with the driver's error) when it does not. */
export async function checkDatabase(deps: Pick<ServiceDeps, 'db'>, _input: Record<string, never>): Promise<void> {
  await deps.db.raw('select 1');
}

/** Whether PostgreSQL answers, for the health page (`GET /healthz`): never rejects. */
export async function databaseIsUp(deps: Pick<ServiceDeps, 'db'>, input: Record<string, never>): Promise<boolean> {
  return checkDatabase(deps, input).then(
    () => true,
    () => false,
  );
}

/**
 * The diagnostic ping of the worker (`pingWorkflow`): checks the database the worker serves and
 * answers `pong:<token>`. A database that does not answer fails the activity, so it is retried.
 */
export async function pingWorker(deps: Pick<ServiceDeps, 'db'>, input: { token: string }): Promise<string> {
  await checkDatabase(deps, {});
  return `pong:${input.token}`;
}
