import type { Context } from 'koa';
import { z } from 'zod';
import type { Scope } from '../../core/scopes';
import type { AppDeps } from '../deps';
import type { Principal } from '../../core/principal';

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

/**
 * Who may call a route:
 * - `public`: no credential; limited per client IP.
 * - `{scope}`: any credential (API key, OAuth token, session) holding the scope.
 * - `{scope?, dashboardOnly: true}`: a dashboard session only; others get 403 dashboard_only.
 * - `{staff: true}`: a session of a staff user.
 */
export type RouteAuth = 'public' | { scope: Scope; dashboardOnly?: boolean } | { dashboardOnly: true; scope?: Scope } | { staff: true };

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
  /** For the OpenAPI document only. */
  response?: z.ZodType;
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
