import Router from '@koa/router';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import type { AppDeps } from '../deps';
import { authenticate, readCredential } from './auth';
import { ApiError, dashboardOnly, databaseUnavailable, insufficientScope, roleForbidden, validationFailed } from '../../core/errors';
import { withIdempotency } from './idempotency';
import type { Principal } from '../../core/principal';
import type { Verdict } from './rate-limit';
import { isDashboardOnly, routeRoles, routeScope, type RouteDef } from './route';
import { parseOrThrow } from '../../core/validate';
import { checkSuccessAnswer } from './response-check';
import { readServerCaller } from './server-caller';
import { isDatabaseUnavailable } from '../../db/unavailable';

export const BODY_LIMIT = '1mb';

const parseBody = koaBody({
  json: true,
  urlencoded: true,
  text: false,
  multipart: false,
  jsonLimit: BODY_LIMIT,
  formLimit: BODY_LIMIT,
  jsonStrict: true,
  parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] as never,
});
/** The same parser, also keeping the exact bytes (`ctx.request.rawBody`) for signature checks. */
const parseBodyKeepRaw = koaBody({
  json: true,
  urlencoded: true,
  text: false,
  multipart: false,
  jsonLimit: BODY_LIMIT,
  formLimit: BODY_LIMIT,
  jsonStrict: true,
  includeUnparsed: true,
  parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] as never,
});

function hasBody(ctx: Context): boolean {
  const len = ctx.get('content-length');
  return (len !== '' && len !== '0') || ctx.get('transfer-encoding') !== '';
}

async function readBody(ctx: Context, route: RouteDef): Promise<unknown> {
  if (!route.body) return undefined;
  if (hasBody(ctx)) {
    const accepts = route.accepts ?? ['json'];
    const type = ctx.request.is('application/json', 'application/x-www-form-urlencoded');
    const ok =
      (type === 'application/json' && accepts.includes('json')) ||
      (type === 'application/x-www-form-urlencoded' && accepts.includes('form'));
    if (!ok) {
      const want = accepts.map((a) => (a === 'json' ? 'application/json' : 'application/x-www-form-urlencoded')).join(' or ');
      throw new ApiError(415, 'unsupported_media_type', `Send the body as ${want}`);
    }
    await (route.rawBody ? parseBodyKeepRaw : parseBody)(ctx, async () => undefined);
  }
  return ctx.request.body ?? {};
}

/**
 * The path of the first string or key holding a NUL character, which PostgreSQL cannot store in
 * text or jsonb. Checked on every request part, so no route can reach the database with one.
 */
function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  for (const [k, v] of Object.entries(value)) {
    const here = `${path}.${k}`;
    if (k.includes('\u0000')) return here;
    const found = findNul(v, here, depth + 1);
    if (found) return found;
  }
  return null;
}

function rejectNul(value: unknown, part: string): void {
  const at = findNul(value, part);
  if (at) throw validationFailed([{ path: at.replace(/\u0000/g, '\\0'), message: 'must not contain NUL characters' }]);
}

function authorize(route: RouteDef, p: Principal): void {
  const auth = route.auth;
  if (auth === 'public') return;
  if ('staff' in auth) {
    if (p.kind !== 'session') throw dashboardOnly();
    if (!p.isStaff) throw new ApiError(403, 'forbidden', 'Staff only');
    return;
  }
  if (isDashboardOnly(auth) && p.kind !== 'session') throw dashboardOnly();
  const scope = routeScope(auth);
  if (scope && !p.scopes.has(scope)) throw insufficientScope(scope);
  // Roles on the route table (docs/accounts.md "Roles by route"); a key or token is judged by its user's role.
  const roles = routeRoles(auth);
  if (!roles || !roles.includes(p.role)) throw roleForbidden(p.role, roles ?? []);
}

const isLimited = (err: unknown): err is ApiError => err instanceof ApiError && err.status === 429;
const isFormEncoded = (ctx: Context) => ctx.request.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded';

/** Build the router from the route table. Every route runs: auth → rate limit → scope → parse → per-target limit → handler. */
export function mountRoutes(routes: RouteDef[], deps: AppDeps): Router {
  const router = new Router();
  for (const route of routes) {
    router[route.method](route.path, async (ctx: Context) => {
      let principal: Principal | undefined;
      let ipVerdict: Verdict | null = null;
      let visitorLimited: ApiError | null = null;
      if (route.errorShape) ctx.state.errorShape = route.errorShape;
      if (route.auth === 'public') {
        // A submission or booking sent from a server with its team's key counts against the key (server-caller.ts).
        let caller = null;
        if (route.rateLimit === 'submit') {
          try {
            caller = await readServerCaller(ctx, deps.db);
          } catch (err) {
            await deps.rateLimits.checkIp(ctx); // a bad credential is limited per IP, as on the private routes
            throw err;
          }
        }
        if (caller) ipVerdict = await deps.rateLimits.checkServer(ctx, caller);
        else if (route.rateLimit !== 'none') {
          try {
            ipVerdict = await deps.rateLimits.checkIp(ctx, route.rateLimit);
          } catch (err) {
            // A form-encoded post (a browser without JavaScript) over its address's budget gets the
            // route's own answer, after its body is read (below): a page with the answers kept.
            if (!(isLimited(err) && route.onTargetLimited && isFormEncoded(ctx))) throw err;
            visitorLimited = err;
          }
        }
      } else {
        try {
          principal = await authenticate(deps.db, readCredential(ctx));
        } catch (err) {
          await deps.rateLimits.checkIp(ctx); // unauthenticated traffic is limited per IP
          throw err;
        }
        await deps.rateLimits.checkPrincipal(ctx, principal);
        authorize(route, principal);
        ctx.state.principal = principal;
      }
      rejectNul(ctx.params, 'params');
      rejectNul(ctx.query, 'query');
      const params = route.params ? parseOrThrow(route.params, ctx.params, 'params') : undefined;
      const query = route.query ? parseOrThrow(route.query, ctx.query, 'query') : undefined;
      const rawBody = await readBody(ctx, route);
      try {
        await afterBody(route, deps, ctx, { params, query, rawBody, principal, ipVerdict, visitorLimited });
      } catch (err) {
        if (!(route.outagePage && isDatabaseUnavailable(err) && isFormEncoded(ctx))) throw err;
        route.outagePage(ctx, rawBody, databaseUnavailable());
      }
    });
  }
  return router;
}

interface Parsed {
  params: unknown;
  query: unknown;
  rawBody: unknown;
  principal: Principal | undefined;
  ipVerdict: Verdict | null;
  visitorLimited: ApiError | null;
}

/** The steps after the body is read: validate, per-target limit, the handler (with its idempotency). */
async function afterBody(route: RouteDef, deps: AppDeps, ctx: Context, parsed: Parsed): Promise<void> {
  const { params, query, rawBody, principal, ipVerdict, visitorLimited } = parsed;
  rejectNul(rawBody, 'body');
  const body = route.body ? parseOrThrow(route.body, rawBody, 'body') : undefined;
  if (visitorLimited && route.onTargetLimited) {
    await route.onTargetLimited({ params, query, body, ctx, deps, error: visitorLimited, limited: 'visitor' } as never);
    return;
  }
  if (route.rateLimitTarget) {
    const plan = route.rateLimitPlan ? await route.rateLimitPlan({ params, deps } as never) : null;
    try {
      await deps.rateLimits.checkTarget(ctx, route.rateLimitTarget({ params, body } as never), ipVerdict, plan);
    } catch (err) {
      if (!(isLimited(err) && route.onTargetLimited)) throw err;
      await route.onTargetLimited({ params, query, body, ctx, deps, error: err, limited: 'target' } as never);
      return;
    }
  }
  const run = async () => {
    const result = await route.handler({ params, query, body, ctx, deps, principal } as never);
    if (!route.raw) {
      ctx.status = route.status ?? 200;
      if (ctx.status !== 204) ctx.body = result;
    }
    if (deps.config.VALIDATE_RESPONSES) checkSuccessAnswer(route, ctx);
  };
  if (route.idempotent && principal) {
    await withIdempotency(deps, ctx, `${principal.teamId}:${principal.credentialId}`, run);
  } else {
    await run();
  }
}
