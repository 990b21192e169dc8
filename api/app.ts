import Koa from 'koa';
import type { AppDeps } from './deps';
import { ApiError } from '../core/errors';
import { requestIdAndErrors } from './http/errors-middleware';
import { mountRoutes } from './http/mount';
import type { RouteDef } from './http/route';
import { allRoutes } from './routes';
import { checkErrorAnswers } from './http/response-check';
import { boundInFlight } from './http/in-flight';

async function securityHeaders(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  await next();
  // Pages meant for embedding set their own frame-ancestors; everything else refuses framing.
  if (!ctx.response.get('Content-Security-Policy')) ctx.set('Content-Security-Policy', "frame-ancestors 'none'");
  if (!ctx.response.get('X-Frame-Options') && !/frame-ancestors (?!'none')/.test(ctx.response.get('Content-Security-Policy'))) {
    ctx.set('X-Frame-Options', 'DENY');
  }
}

/** Build the Koa app. `routes` defaults to the full route table. */
export function createApp(deps: AppDeps, routes: RouteDef[] = allRoutes()): Koa {
  // Behind N proxies the client's address is the Nth X-Forwarded-For value from the right (Koa keeps the last N).
  const hops = deps.config.TRUST_PROXY_HOPS;
  const app = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  app.silent = true;
  const router = mountRoutes(routes, deps);
  if (deps.config.VALIDATE_RESPONSES) app.use(checkErrorAnswers);
  app.use(requestIdAndErrors);
  const inFlight = boundInFlight(deps.config.MAX_IN_FLIGHT);
  // Readable as app.context.inFlight() (the metrics and the tests).
  app.context.inFlight = inFlight.current;
  app.use(inFlight);
  app.use(securityHeaders);
  app.use(router.routes());
  app.use(
    router.allowedMethods({
      throw: true,
      methodNotAllowed: () => new ApiError(405, 'method_not_allowed', 'Method not allowed on this path'),
      notImplemented: () => new ApiError(405, 'method_not_allowed', 'Method not implemented'),
    }),
  );
  return app;
}
