import type { Context } from 'koa';
import { z } from 'zod';
import { ROLES, scopesForRole, type Plan, type Role, type Scope } from '../../core/scopes';
import type { ApiError } from '../../core/errors';
import type { AppDeps } from '../deps';
import type { Principal } from '../../core/principal';
import type { PublicBucket } from './rate-limit';

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

/**
 * Who may call a route:
 * - `public`: no credential; limited per client IP.
 * - `{scope}`: any credential (API key, OAuth token, session) holding the scope.
 * - `{scope?, dashboardOnly: true}`: a dashboard session only; others get 403 dashboard_only.
 * - `{staff: true}`: a session of a staff user.
 * `roles` names the roles whose users may call it (a key acts with its creator's role); without it,
 * the roles whose scopes include the route's scope (core/scopes.ts `scopesForRole`). A route with
 * neither scope nor roles is refused by test/foundation/role-matrix.test.ts.
 */
export type RouteAuth =
  | 'public'
  | { scope: Scope; dashboardOnly?: boolean; roles?: readonly Role[] }
  | { dashboardOnly: true; scope?: Scope; roles?: readonly Role[] }
  | { staff: true };

/** A success answer that is not JSON. */
export interface RawResponse {
  mediaType: string;
  description: string;
  /** The success status when it is not the route's `status` (a redirect: 302/303). */
  status?: number;
}

export function isRawResponse(r: RouteDef['response']): r is RawResponse {
  return !!r && typeof r === 'object' && 'mediaType' in r;
}

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  ctx: Context;
  deps: AppDeps;
}

export interface AuthedInput<P, Q, B> extends RouteInput<P, Q, B> {
  principal: Principal;
}

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

export interface RouteDef<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  A extends RouteAuth = RouteAuth,
> {
  method: HttpMethod;
  /** Koa path, e.g. `/api/v1/forms/:id`. */
  path: string;
  auth: A;
  summary: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  /** Accepted request body encodings; default json. */
  accepts?: Array<'json' | 'form'>;
  /** Success status; 204 sends no body. Default 200. */
  status?: number;
  /**
   * What a success answers: the zod schema of the JSON body (from the presenters), or a
   * non-JSON answer (HTML page, redirect, iCalendar, image, script). Omitted only with status 204.
   * The OpenAPI document shows it; the test app validates every real answer against it.
   */
  response?: z.ZodType | RawResponse;
  /** A second media type of the same success answer (the no-JS form post gets HTML, JSON callers JSON). */
  alternate?: RawResponse;
  /**
   * Hand-picked examples where a rule across fields (exactly one of…, variants) makes the example
   * derived from the schema invalid. Checked against the schemas by test/docs/examples.test.ts.
   */
  examples?: { request?: unknown; response?: unknown; byStatus?: Record<number, unknown> };
  /** Other statuses whose body is the declared response too (the health check's 503). */
  alsoFor?: number[];
  /** When the route answers 409, and why (the OpenAPI document lists it). */
  conflict?: string;
  /**
   * Public routes: the per-IP bucket that counts them (api/http/rate-limit.ts, docs/decisions.md):
   * `public` (default), `pages` (HTML pages, feeds, docs: high), `availability`, `submit` (form
   * submissions and bookings: strict), or `none` (static assets served with ETag and Cache-Control).
   */
  rateLimit?: PublicBucket | 'none';
  /** `submit` routes: the form or booking page the request targets, which has its own per-minute limit. */
  rateLimitTarget?: (input: { params: Infer<P>; body: Infer<B> }) => string;
  /** The plan of the target's team: the per-target limit scales with it (`PLAN_TARGET_SCALE`); none = the base limit. */
  rateLimitPlan?: (input: { params: Infer<P>; deps: AppDeps }) => Promise<Plan | null>;
  /**
   * Answer a 429 itself (the no-JS form post re-shows its answers); it may rethrow the error for the
   * default JSON answer. `limited` says which budget was spent: the target's (`target`), or the
   * visitor's address (`visitor`; for a form-encoded post only, whose body is then read first).
   */
  onTargetLimited?: (input: RouteInput<Infer<P>, Infer<Q>, Infer<B>> & { error: ApiError; limited: 'target' | 'visitor' }) => Promise<void>;
  /**
   * A form-encoded post (a browser without JavaScript) that meets an unreachable database gets this
   * page instead of the JSON 503: the public form's "try again" page keeping the answers.
   */
  outagePage?: (ctx: Context, rawBody: unknown, error: ApiError) => void;
  /** `oauth`: every error of the route is an RFC 6749 body `{error, error_description}` (token and revocation endpoints). */
  errorShape?: 'oauth';
  /** The handler writes ctx itself (HTML pages, redirects, raw bodies). */
  raw?: boolean;
  /** Keep the exact request bytes as `ctx.request.rawBody` (signed provider webhooks). */
  rawBody?: boolean;
  /** Honour the Idempotency-Key header (creating POSTs). */
  idempotent?: boolean;
  handler: (
    input: A extends 'public' ? RouteInput<Infer<P>, Infer<Q>, Infer<B>> : AuthedInput<Infer<P>, Infer<Q>, Infer<B>>,
  ) => Promise<unknown> | unknown;
}

/** Identity helper that keeps the handler's input typed from the schemas. */
export function defineRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  A extends RouteAuth = RouteAuth,
>(def: RouteDef<P, Q, B, A>): RouteDef {
  return def as unknown as RouteDef;
}

export function routeScope(auth: RouteAuth): Scope | undefined {
  return typeof auth === 'object' && 'scope' in auth ? auth.scope : undefined;
}

export function isDashboardOnly(auth: RouteAuth): boolean {
  return typeof auth === 'object' && 'dashboardOnly' in auth && auth.dashboardOnly === true;
}

/** The roles that may call a route (docs/accounts.md "Roles by route"); null for public and staff routes. */
export function routeRoles(auth: RouteAuth): readonly Role[] | null {
  if (auth === 'public' || 'staff' in auth) return null;
  if (auth.roles) return auth.roles;
  const scope = auth.scope;
  if (!scope) return null;
  return ROLES.filter((r) => scopesForRole(r).includes(scope));
}
