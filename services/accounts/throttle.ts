import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import { sha256Hex } from '../../core/crypto';
import { ApiError } from '../../core/errors';

/**
 * Throttles of the account endpoints, separate from the per-credential and public buckets:
 * rate-limiter-flexible's Postgres store on the shared `rate_limits` table, so every API process
 * sees the same counts. Addresses are keyed by a hash, never stored as such.
 *
 * Sign-in: failures are counted per address and per IP for an hour. Past a free allowance each
 * further failure locks that key for a delay that doubles (1 s, 2 s, 4 s … capped at 15 min);
 * an attempt during the lock gets 429 with Retry-After, whether the address exists or not.
 * A success clears the address's count (not the IP's).
 *
 * Counted per client address *and* per account, so one shared address (an office behind one NAT)
 * cannot lock everyone out: a success marks the pair (client address, account) as known for
 * 30 days, and a locked client address still lets a known pair sign in. Spraying many accounts
 * from one address stays locked (those pairs are not known), and an account's own lock holds
 * from every address.
 *
 * Password-reset requests: a fixed number an hour per address and per IP.
 */
export const LOGIN_FREE_FAILURES = { address: 5, ip: 20 };
export const LOGIN_MAX_DELAY_SECONDS = 15 * 60;
/** How long a successful sign-in from a client address keeps that address known for the account. */
export const LOGIN_KNOWN_PAIR_SECONDS = 30 * 24 * 3600;
export const RESET_PER_HOUR = { address: 3, ip: 10 };

const HOUR = 3600;

interface Limiters {
  loginFails: RateLimiterPostgres;
  loginLock: RateLimiterPostgres;
  loginKnown: RateLimiterPostgres;
  resetAddress: RateLimiterPostgres;
  resetIp: RateLimiterPostgres;
}

const byDb = new WeakMap<Db, Limiters>();

function store(db: Db, keyPrefix: string, points: number, duration: number): RateLimiterPostgres {
  return new RateLimiterPostgres({
    storeClient: db,
    storeType: 'knex',
    tableName: 'rate_limits',
    tableCreated: true,
    clearExpiredByTimeout: false,
    keyPrefix,
    points,
    duration,
  });
}

function limiters(db: Db): Limiters {
  let l = byDb.get(db);
  if (!l) {
    l = {
      loginFails: store(db, 'acct_login_fail', 1_000_000, HOUR),
      loginLock: store(db, 'acct_login_lock', 1, 1),
      loginKnown: store(db, 'acct_login_known', 1, LOGIN_KNOWN_PAIR_SECONDS),
      resetAddress: store(db, 'acct_reset_addr', RESET_PER_HOUR.address, HOUR),
      resetIp: store(db, 'acct_reset_ip', RESET_PER_HOUR.ip, HOUR),
    };
    byDb.set(db, l);
  }
  return l;
}

const addressKey = (email: string) => `a:${sha256Hex(email.trim().toLowerCase()).slice(0, 40)}`;
const ipKey = (ip: string) => `i:${ip || 'unknown'}`;
const pairKey = (email: string, ip: string) => `p:${sha256Hex(`${ip}\n${email.trim().toLowerCase()}`).slice(0, 40)}`;

function tooMany(msBeforeNext: number, message: string): ApiError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new ApiError(429, 'rate_limited', message, undefined, { 'Retry-After': String(seconds) });
}

/** The delay after `failures` failures of a key with `free` free ones; 0 while within the allowance. */
export function lockSeconds(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(LOGIN_MAX_DELAY_SECONDS, 2 ** Math.min(failures - free, 20));
}

const isLocked = (r: RateLimiterRes | null): r is RateLimiterRes => !!r && r.consumedPoints > 1 && r.msBeforeNext > 0;

/** Throws 429 while the address is locked, or the IP is locked and this account never signed in from it. */
export async function checkLoginAllowed(deps: Pick<ServiceDeps, 'db'>, { email, ip }: { email: string; ip: string }): Promise<void> {
  const { loginLock, loginKnown } = limiters(deps.db);
  const [a, i] = await Promise.all([loginLock.get(addressKey(email)), loginLock.get(ipKey(ip))]);
  const ipLocked = isLocked(i) && !(await loginKnown.get(pairKey(email, ip)));
  const locked = [a, ipLocked ? i : null].filter(isLocked);
  if (locked.length) {
    throw tooMany(Math.max(...locked.map((r) => r.msBeforeNext)), 'Too many sign-in attempts; wait before trying again');
  }
}

export async function recordLoginFailure(deps: Pick<ServiceDeps, 'db'>, { email, ip }: { email: string; ip: string }): Promise<void> {
  const { loginFails, loginLock } = limiters(deps.db);
  for (const [key, free] of [
    [addressKey(email), LOGIN_FREE_FAILURES.address],
    [ipKey(ip), LOGIN_FREE_FAILURES.ip],
  ] as const) {
    const res = await loginFails.penalty(key, 1);
    const seconds = lockSeconds(res.consumedPoints, free);
    if (seconds > 0) await loginLock.block(key, seconds);
  }
}

export async function recordLoginSuccess(deps: Pick<ServiceDeps, 'db'>, { email, ip }: { email: string; ip: string }): Promise<void> {
  const { loginFails, loginLock, loginKnown } = limiters(deps.db);
  await Promise.all([
    loginFails.delete(addressKey(email)),
    loginLock.delete(addressKey(email)),
    loginKnown.block(pairKey(email, ip), LOGIN_KNOWN_PAIR_SECONDS),
  ]);
}

/** Counts a password-reset request; throws 429 past the hourly allowance of the IP or the address. */
export async function consumeResetRequest(deps: Pick<ServiceDeps, 'db'>, { email, ip }: { email: string; ip: string }): Promise<void> {
  const { resetAddress, resetIp } = limiters(deps.db);
  try {
    await resetIp.consume(ipKey(ip));
    await resetAddress.consume(addressKey(email));
  } catch (err) {
    if (err instanceof RateLimiterRes) throw tooMany(err.msBeforeNext, 'Too many password-reset requests; try again later');
    throw err;
  }
}
