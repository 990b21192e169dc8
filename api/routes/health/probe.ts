import { databaseIsUp } from '../../../services/health/check';
import type { AppDeps } from '../../deps';

/** Each dependency is given this long; with the handler's own work the answer comes well within 2 s. */
export const PROBE_MS = 1500;
/** A probe's result is reused this long, so a balancer (or anyone) polling often costs one query a second. */
const FRESH_MS = 1000;

export interface Probe {
  postgres: boolean;
  temporal: boolean;
}

/** Resolves with the promise's value, or `fallback` after `ms` (the promise is left to settle on its own). */
export function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([promise.catch(() => fallback), late]).finally(() => clearTimeout(timer));
}

const recent = new WeakMap<AppDeps, { at: number; probe: Promise<Probe> }>();

/** Whether PostgreSQL and Temporal answer, each within PROBE_MS; shared by /healthz and /readyz. */
export function probeDependencies(deps: AppDeps): Promise<Probe> {
  const now = Date.now();
  const last = recent.get(deps);
  if (last && now - last.at < FRESH_MS) return last.probe;
  const probe = Promise.all([within(databaseIsUp(deps, {}), PROBE_MS, false), within(deps.temporalHealthy(), PROBE_MS, false)]).then(
    ([postgres, temporal]) => ({ postgres, temporal }),
  );
  recent.set(deps, { at: now, probe });
  return probe;
}
