import type { Context, Next } from 'koa';
import { serviceUnavailable } from '../../core/errors';

/** Paths never refused by the bound: a balancer must still read the process's health under load. */
const EXEMPT = new Set(['/livez', '/readyz', '/healthz']);

/**
 * Bounds the requests this process holds at once. During a stall (PostgreSQL frozen) requests
 * wait up to DATABASE_BUDGET_MS each; under load they would pile up and grow memory, so past
 * `max` a new request is answered 503 with Retry-After at once (docs/operators.md "Failing fast").
 * Runs inside the error middleware, so the answer has the documented error shape.
 */
export function boundInFlight(max: number): ((ctx: Context, next: Next) => Promise<void>) & { current(): number } {
  let current = 0;
  const middleware = async (ctx: Context, next: Next): Promise<void> => {
    if (EXEMPT.has(ctx.path)) return next();
    if (current >= max) throw serviceUnavailable('The service is busy; try again in a few seconds', 1);
    current++;
    try {
      await next();
    } finally {
      current--;
    }
  };
  return Object.assign(middleware, { current: () => current });
}

declare module 'koa' {
  interface ExtendableContext {
    /** Requests held by the process now (api/http/in-flight.ts). */
    inFlight(): number;
  }
}
