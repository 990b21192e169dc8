import type { Context } from 'koa';
import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Db } from '../../db/knex';
import type { Plan } from '../../core/scopes';
import { ApiError } from '../../core/errors';
import type { Principal } from '../../core/principal';
import { SharedCounter } from './shared-counter';
import type { ServerCaller } from './server-caller';

/** Requests an hour by team plan; null is unlimited. */
export const PLAN_PER_HOUR: Record<Plan, number | null> = { free: 100, pro: 1000, enterprise: null };

/**
 * The per-target budget (submissions to one form a minute, from all addresses) scales with the
 * team's plan: the base (`RATE_LIMIT_SUBMIT_PER_TARGET_PER_MINUTE`, 600) times this (docs/decisions.md).
 */
export const PLAN_TARGET_SCALE: Record<Plan, number> = { free: 1, pro: 5, enterprise: 25 };

export interface Verdict {
  limit: number;
  remaining: number;
  resetSeconds: number;
  blocked: boolean;
}

/**
 * Per-IP buckets of public requests, each with its own limit a minute (docs/decisions.md):
 * - `public`: everything public not listed below, and requests without a valid credential;
 * - `pages`: HTML pages (form, booking, unsubscribe), tracking pixels and redirects, calendar feeds,
 *   the API docs and health: cheap, and many visitors share one IP behind a NAT: a high limit;
 * - `availability`: the booking widget's slot queries;
 * - `submit`: form submissions and bookings: strict per IP, plus a per-target limit (form, page).
 * Static assets (`/embed.js`) are not counted: they are served from memory with ETag and Cache-Control.
 */
export type PublicBucket = 'public' | 'pages' | 'availability' | 'submit';

export interface PublicLimits {
  publicPerMinute: number;
  pagesPerMinute: number;
  availabilityPerMinute: number;
  submitPerMinute: number;
  /** Submissions to one form, or bookings on one page / event type, from all IPs together. */
  submitPerTargetPerMinute: number;
  /** The per-target window (default 60 s). */
  submitPerTargetWindowSeconds?: number;
}

export interface RateLimitOptions extends PublicLimits {
  disabled?: boolean;
  apiKeyPerMinute?: number;
  /** See SharedCounter: 0 counts every request in the store; N pushes a process's increments every N ms. */
  syncMs?: number;
  /** When given (REDIS_URL), counters live in Redis instead of Postgres. */
  redis?: Redis;
}

/**
 * Counters live in Postgres (one UNLOGGED table), or in Redis when REDIS_URL is set, so every
 * API process shares them.
 * Each limiter is keyed by its window and limit, so a credential's limit can differ per principal.
 */
export class RateLimits {
  private readonly limiters = new Map<string, SharedCounter>();

  private readonly perIp: Record<PublicBucket, number>;
  private readonly perTarget: number;
  private readonly disabled: boolean;
  private readonly apiKeyPerMinute: number;
  private readonly syncMs: number;

  constructor(
    private readonly db: Db,
    private readonly opts: RateLimitOptions,
  ) {
    this.perIp = {
      public: opts.publicPerMinute,
      pages: opts.pagesPerMinute,
      availability: opts.availabilityPerMinute,
      submit: opts.submitPerMinute,
    };
    this.perTarget = opts.submitPerTargetPerMinute;
    this.disabled = opts.disabled ?? false;
    this.apiKeyPerMinute = opts.apiKeyPerMinute ?? 1000;
    this.syncMs = opts.syncMs ?? 0;
  }

  /** Close the Redis connection, if any. */
  async close(): Promise<void> {
    await this.opts.redis?.quit().catch(() => undefined);
  }

  private limiter(name: string, points: number, duration: number): SharedCounter {
    const id = `${name}:${points}:${duration}`;
    let l = this.limiters.get(id);
    if (!l) {
      const store: RateLimiterAbstract = this.opts.redis
        ? new RateLimiterRedis({
            storeClient: this.opts.redis,
            keyPrefix: id,
            points,
            duration,
            // If Redis is unreachable, count in this process rather than failing the request.
            insuranceLimiter: new RateLimiterMemory({ keyPrefix: id, points, duration }),
          })
        : new RateLimiterPostgres({
            storeClient: this.db,
            storeType: 'knex',
            tableName: 'rate_limits',
            tableCreated: true,
            clearExpiredByTimeout: false,
            keyPrefix: id,
            points,
            duration,
          });
      l = new SharedCounter(store, this.syncMs);
      this.limiters.set(id, l);
    }
    return l;
  }

  private async consume(l: SharedCounter, key: string, points: number): Promise<Verdict> {
    const { total, resetAt } = await l.hit(key);
    const resetSeconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
    return { limit: points, remaining: Math.max(points - total, 0), resetSeconds, blocked: total > points };
  }

  /** Per credential per minute, and per team plan per hour: both count, the stricter answers. */
  async checkPrincipal(ctx: Context, p: Principal): Promise<void> {
    if (this.disabled) return;
    const perMinute = p.kind === 'api_key' ? this.apiKeyPerMinute : p.perMinuteLimit;
    const checks: Array<Promise<Verdict>> = [this.consume(this.limiter('cred', perMinute, 60), p.credentialId, perMinute)];
    const hourly = PLAN_PER_HOUR[p.plan];
    if (hourly !== null) checks.push(this.consume(this.limiter('plan', hourly, 3600), p.teamId, hourly));
    apply(ctx, await Promise.all(checks));
  }

  /** Public endpoints: per client IP, in the route's bucket. Returns the verdict for checkTarget. */
  async checkIp(ctx: Context, bucket: PublicBucket = 'public'): Promise<Verdict | null> {
    if (this.disabled) return null;
    const n = this.perIp[bucket];
    // 'ip' is the name the default bucket always had: its stored counters stay valid.
    const v = await this.consume(this.limiter(bucket === 'public' ? 'ip' : `ip-${bucket}`, n, 60), ctx.ip || 'unknown', n);
    apply(ctx, [v]);
    return v;
  }

  /**
   * A `submit` route called from a server with its team's API key: the key's budget a minute (the
   * same as its API calls) instead of the per-address bucket, and the `submit` limit per visitor
   * address the server passed (scoped to the team, so one team cannot spend another's visitors).
   */
  async checkServer(ctx: Context, caller: ServerCaller): Promise<Verdict | null> {
    if (this.disabled) return null;
    const perKey = this.apiKeyPerMinute;
    const checks = [this.consume(this.limiter('cred', perKey, 60), caller.credentialId, perKey)];
    if (caller.visitorIp) {
      const n = this.perIp.submit;
      checks.push(this.consume(this.limiter('ip-submit', n, 60), `${caller.teamId}:${caller.visitorIp}`, n));
    }
    const verdicts = await Promise.all(checks);
    apply(ctx, verdicts);
    return stricter(verdicts);
  }

  /** `submit` routes: the per-target limit (a form, a booking page), shared by every IP; headers show the stricter. */
  async checkTarget(ctx: Context, target: string, ipVerdict: Verdict | null, plan: Plan | null = null): Promise<void> {
    if (this.disabled) return;
    const n = this.perTarget * PLAN_TARGET_SCALE[plan ?? 'free'];
    const v = await this.consume(this.limiter('target', n, this.opts.submitPerTargetWindowSeconds ?? 60), target, n);
    apply(ctx, ipVerdict ? [ipVerdict, v] : [v]);
  }
}

/** The stricter verdict: a blocked one first, else the one with the fewest remaining. */
function stricter(verdicts: Verdict[]): Verdict {
  return verdicts.reduce((a, b) => (a.blocked !== b.blocked ? (a.blocked ? a : b) : a.remaining <= b.remaining ? a : b));
}

function apply(ctx: Context, verdicts: Verdict[]): void {
  const v = stricter(verdicts);
  const headers = {
    'RateLimit-Limit': String(v.limit),
    'RateLimit-Remaining': String(v.remaining),
    'RateLimit-Reset': String(v.resetSeconds),
  };
  if (v.blocked) {
    throw new ApiError(429, 'rate_limited', `Rate limit exceeded; retry in ${v.resetSeconds} s`, undefined, {
      ...headers,
      'Retry-After': String(v.resetSeconds),
    });
  }
  ctx.set(headers);
}
