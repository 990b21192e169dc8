import path from 'node:path';
import { z } from 'zod';
import { calendarProviderSettings } from './config-calendars';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const hostname = z.string().regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i, { error: 'must be a domain name' });

const schema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  BASE_URL: z.url().optional(),
  DATA_DIR: z.string().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * The API's wait for PostgreSQL, in ms: at most this long for a pooled connection, and again for
   * each statement (client-side read timeout and server-side statement_timeout). Past it the
   * request answers 503 `service_unavailable` with Retry-After (docs/operators.md "Failing fast").
   */
  DATABASE_BUDGET_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  /** Requests the API holds at once; past it a new one is answered 503 at once (api/http/in-flight.ts). */
  MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(500),
  /** Prometheus metrics on a separate listener (GET /metrics), off the public port; 0: none. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** The worker: the Temporal SDK's own metrics (pollers, slots, task latencies), served by the SDK on METRICS_HOST:this port; 0: none. */
  TEMPORAL_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('fss'),
  /** Workflow start RPCs in flight from one process (outbox fast path and relay together). */
  TEMPORAL_MAX_CONCURRENT_STARTS: z.coerce.number().int().min(1).max(1000).default(4),
  /**
   * How long a workflow task may wait on the worker's sticky queue before the server moves it to
   * the shared queue (and a worker replays the history from the start). The SDK's 10 s times out
   * nearly every task when thousands of enrollments wake at once (docs/sequences.md "Throughput").
   */
  TEMPORAL_STICKY_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(600),
  /**
   * The worker's workflow code (temporal/workflow-code.ts): a prebuilt bundle's path; unset means
   * the bundle `npm run build` wrote beside the compiled worker when there is one; `none` bundles
   * the workflow sources at start (what `npm run dev` and the tests do).
   */
  WORKFLOW_BUNDLE_PATH: z.string().optional(),
  /**
   * Who starts the workflows a commit asks for: the `worker` (the API sends a NOTIFY; the worker's
   * relay starts them with eager workflow start) or the `api` process itself (its own client).
   */
  OUTBOX_STARTS_FROM: z.enum(['worker', 'api']).default('worker'),
  /**
   * How long the worker's relay holds an outbox row it handles itself (a webhook's first attempt):
   * a worker lost mid-attempt frees it after this long and another worker repeats the attempt.
   * It must outlast an attempt's waits and its HTTP timeout (docs/webhooks.md "First attempt").
   */
  OUTBOX_LEASE_MS: z.coerce.number().int().min(25_000).max(600_000).default(30_000),
  /**
   * How long POST /api/calendar/book waits for the worker's write of the booking to a Google or
   * Microsoft calendar, to answer with the provider's event and its link (one NOTIFY or this
   * deadline; docs/calendars.md "The booking's answer"); 0: never wait.
   */
  BOOKING_EVENT_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(3000),
  TEMPORAL_TLS: bool.default(false),
  TEMPORAL_API_KEY: z.string().optional(),
  TEMPORAL_TLS_CERT_PATH: z.string().optional(),
  TEMPORAL_TLS_KEY_PATH: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Forms Service <no-reply@localhost>'),
  /** VERP return paths `bounce+<token>@<domain>`: the inbound listener receives the bounces. */
  MAIL_BOUNCE_DOMAIN: hostname.default('bounces.localhost'),
  /** Reply-To `reply+<token>@<domain>`: the inbound listener receives the replies. */
  MAIL_REPLY_DOMAIN: hostname.default('reply.localhost'),
  /** Hours after SMTP acceptance with no bounce after which a message counts as delivered. */
  MAIL_BOUNCE_WINDOW: z
    .string()
    .regex(/^\d+\s*h?$/, { error: 'must be a number of hours, e.g. 72 or 72h' })
    .default('72')
    .transform((v) => parseInt(v, 10)),
  /** Send attempts answered with an SMTP 4xx before the message is recorded as a soft bounce. */
  MAIL_SOFT_BOUNCE_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  /** SendGrid Event Webhook verification key (base64 DER or PEM); unset: the endpoint answers 401. */
  SENDGRID_WEBHOOK_PUBLIC_KEY: z.string().min(1).optional(),
  /** The inbound SMTP listener (bin/inbound.ts). */
  INBOUND_SMTP_HOST: z.string().default('0.0.0.0'),
  INBOUND_SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(2525),
  INBOUND_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  INBOUND_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).default(10),
  /** All connections at once; past it a new one is answered 421 and closed. */
  INBOUND_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(200),
  /** A connection that sends nothing for this long is closed (ms). */
  INBOUND_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_API_BASE_URL: z.url().optional(),
  REDIS_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Public requests a minute per client IP, by bucket (api/http/rate-limit.ts). The default bucket: */
  RATE_LIMIT_PUBLIC_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  /** HTML pages, pixels, feeds, docs, health. */
  RATE_LIMIT_PAGES_PER_MINUTE: z.coerce.number().int().min(1).default(3000),
  /** GET /api/calendar/availability. */
  RATE_LIMIT_AVAILABILITY_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Form submissions and bookings, per IP. */
  RATE_LIMIT_SUBMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Form submissions per form, bookings per booking page (or event type / host named), from all IPs. */
  RATE_LIMIT_SUBMIT_PER_TARGET_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** The per-target window in seconds (a minute; tests shorten it to see a window pass). */
  RATE_LIMIT_SUBMIT_PER_TARGET_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  RATE_LIMIT_DISABLED: bool.default(false),
  /** Requests a minute per API key (1,000 by the spec; support can raise it). */
  RATE_LIMIT_API_KEY_PER_MINUTE: z.coerce.number().int().min(1).default(1000),
  /** 0: every request increments the shared counter in Postgres; N: a process pushes its increments at most every N ms. */
  RATE_LIMIT_SYNC_MS: z.coerce.number().int().min(0).max(5000).default(100),
  /** Webhooks may call loopback addresses (http too): for a local receiver in development; `npm run dev` turns it on. */
  ALLOW_LOOPBACK_WEBHOOK_URLS: bool.default(false),
  /** Webhooks may call private ranges (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), over https. Link-local and metadata addresses never. */
  ALLOW_PRIVATE_WEBHOOK_URLS: bool.default(false),
  COUNTRY_HEADER: z.string().default('cf-ipcountry'),
  /**
   * How many proxies (load balancers) in front of the API append to X-Forwarded-For: the client's
   * address is the Nth value from the right. 0 (default): the socket's address, the header ignored.
   * A value a client writes itself (the leftmost ones) is never trusted (docs/deployment.md).
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Room links of video providers 1 and 2: `{room}` becomes an unguessable room name (docs/scheduling.md "Video links"). */
  VIDEO_PROVIDER_1_URL_TEMPLATE: z
    .string()
    .regex(/^https:\/\/[^/]+\/.*\{room\}/, { error: 'must be an https URL containing {room}' })
    .default('https://meet.jit.si/{room}'),
  VIDEO_PROVIDER_2_URL_TEMPLATE: z
    .string()
    .regex(/^https:\/\/[^/]+\/.*\{room\}/, { error: 'must be an https URL containing {room}' })
    .default('https://meet.jit.si/{room}'),
  /** `url` (Jitsi: the room exists once opened), `daily`, `zoom` (docs/scheduling.md), `google_meet`, `microsoft_teams` (docs/calendars.md). */
  VIDEO_PROVIDER_1_ADAPTER: z.enum(['url', 'daily', 'zoom', 'google_meet', 'microsoft_teams']).default('url'),
  VIDEO_PROVIDER_2_ADAPTER: z.enum(['url', 'daily', 'zoom', 'google_meet', 'microsoft_teams']).default('url'),
  DAILY_API_URL: z.url().default('https://api.daily.co/v1'),
  DAILY_API_KEY: z.string().min(1).optional(),
  /**
   * Zoom (docs/scheduling.md "Zoom"): `per_host`, each host connects their own Zoom account (OAuth
   * authorization code); `installation`, one Server-to-Server OAuth app of the company's account
   * (ZOOM_ACCOUNT_ID), the host's Zoom user chosen by their email. Every Zoom URL is a setting.
   */
  ZOOM_SETUP: z.enum(['per_host', 'installation']).default('per_host'),
  ZOOM_API_URL: z.url().default('https://api.zoom.us/v2'),
  /** Where `/oauth/authorize` and `/oauth/token` are. */
  ZOOM_OAUTH_URL: z.url().default('https://zoom.us'),
  ZOOM_CLIENT_ID: z.string().min(1).optional(),
  ZOOM_CLIENT_SECRET: z.string().min(1).optional(),
  ZOOM_ACCOUNT_ID: z.string().min(1).optional(),
  /** The app's secret token: signs Zoom's webhooks and answers its URL validation. */
  ZOOM_WEBHOOK_SECRET_TOKEN: z.string().min(1).optional(),
  ...calendarProviderSettings,
  /**
   * After the meeting (docs/scheduling.md "After the meeting"): the follow-up asks the video provider
   * this many minutes after the end, and keeps asking while the recording is processing for at most
   * MEETING_RECORDING_WAIT_HOURS (then: `not_recorded`).
   */
  MEETING_FOLLOWUP_GRACE_MINUTES: z.coerce.number().int().min(0).max(1440).default(15),
  MEETING_RECORDING_WAIT_HOURS: z.coerce.number().int().min(1).max(168).default(24),
  /** Days a stored transcript is kept (sealed) before the maintenance task deletes it. */
  TRANSCRIPT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /**
   * AI notes through an OpenAI-compatible chat completions API (OpenAI, Azure OpenAI, Ollama, vLLM,
   * LM Studio): `POST {AI_NOTES_API_URL}/chat/completions`. Unset: no notes (`not_configured`).
   */
  AI_NOTES_API_URL: z.url().optional(),
  AI_NOTES_API_KEY: z.string().min(1).optional(),
  AI_NOTES_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** Characters of transcript sent in one request; a longer transcript is summarised in parts, then the parts. */
  AI_NOTES_MAX_INPUT_CHARS: z.coerce.number().int().min(500).max(2_000_000).default(48_000),
  /** Answers that do not match the schema are asked again this many times in all, then the notes fail. */
  AI_NOTES_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  /**
   * Tests: check every success answer against the route's declared response schema (and every
   * error answer against the error shape); a mismatch answers 500 response_schema_mismatch.
   */
  VALIDATE_RESPONSES: bool.default(false),
  /**
   * AES-256-GCM key for calendar credentials at rest: base64 of 32 bytes or 64 hex characters
   * (core/secret-box.ts). `npm run dev` generates one under .data/; production needs it set.
   */
  CALENDAR_CREDENTIALS_KEY: z
    .string()
    .refine((v) => /^[0-9a-f]{64}$/i.test(v.trim()) || Buffer.from(v.trim(), 'base64').length === 32, {
      error: 'must be 32 bytes, as base64 or 64 hex characters',
    })
    .optional(),
  /**
   * HMAC-SHA256 key of the email suppression list (services/mail/suppression.ts): base64 of 32 bytes
   * or 64 hex characters. `npm run dev` generates one under .data/; production needs it set. Changing
   * it forgets the list (the stored hashes no longer match).
   */
  MAIL_SUPPRESSION_KEY: z
    .string()
    .refine((v) => /^[0-9a-f]{64}$/i.test(v.trim()) || Buffer.from(v.trim(), 'base64').length === 32, {
      error: 'must be 32 bytes, as base64 or 64 hex characters',
    })
    .optional(),
  /** How often each calendar connection syncs (docs/calendars.md), e.g. 5m, 90s. */
  CALENDAR_SYNC_INTERVAL: z
    .string()
    .regex(/^\d+\s*(ms|s|m|h)?$/, { error: 'must be a duration such as 5m, 90s or 300000ms' })
    .default('5m'),
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: z.coerce.number().int().min(1).max(1000).default(10),
  /**
   * The cost of a new password hash (argon2id, core/passwords.ts): memory in KiB and passes. Below
   * OWASP's floor (19456 KiB with 2 passes) the processes refuse to start, unless NODE_ENV=test.
   * Stored hashes carry their own cost and keep verifying when these change.
   */
  PASSWORD_HASH_MEMORY_KIB: z.coerce.number().int().min(1024).max(4_194_304).default(65_536),
  PASSWORD_HASH_PASSES: z.coerce.number().int().min(1).max(64).default(3),
});

export type Config = z.infer<typeof schema> & { dataDir: string; baseUrl: string };

export class ConfigError extends Error {}

/**
 * Parse a config from an env object. Throws ConfigError naming every bad variable. A variable set
 * to the empty string counts as unset (`DATABASE_URL=` in a shell or an env file means "no value",
 * as Docker Compose and most process managers read it), so its default or its "not set" check applies.
 */
export function parseConfig(rawEnv: NodeJS.ProcessEnv = process.env): Config {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(rawEnv).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if (env.TRUST_PROXY !== undefined) {
    // The old switch trusted the leftmost X-Forwarded-For value, which any client writes: refuse it loudly.
    throw new ConfigError(
      'Invalid configuration:\n  TRUST_PROXY: replaced by TRUST_PROXY_HOPS=N, the number of proxies in front of the API (1 behind one load balancer)',
    );
  }
  const weakHash = passwordCostProblem(c);
  if (weakHash) throw new ConfigError(`Invalid configuration:\n  ${weakHash}`);
  const needs: Record<string, string[]> = {
    daily: ['DAILY_API_KEY'],
    zoom: ['ZOOM_CLIENT_ID', 'ZOOM_CLIENT_SECRET', ...(c.ZOOM_SETUP === 'installation' ? ['ZOOM_ACCOUNT_ID'] : [])],
    google_meet: ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
    microsoft_teams: ['MICROSOFT_CLIENT_ID', 'MICROSOFT_CLIENT_SECRET'],
  };
  for (const n of [1, 2] as const) {
    const adapter = c[`VIDEO_PROVIDER_${n}_ADAPTER`];
    const missing = (needs[adapter] ?? []).filter((k) => !(c as Record<string, unknown>)[k]);
    if (missing.length)
      throw new ConfigError(`Invalid configuration:\n  ${missing.join(', ')}: required when VIDEO_PROVIDER_${n}_ADAPTER=${adapter}`);
  }
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR ?? path.join(__dirname, '..', '.data')),
    baseUrl: (c.BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
  };
}

/** OWASP's floor for argon2id (Password Storage Cheat Sheet): 19 MiB of memory and 2 passes. */
export const PASSWORD_HASH_FLOOR = { memoryKiB: 19_456, passes: 2 } as const;

/** A password hash cost below OWASP's floor outside tests (the test config uses 1 MiB and 1 pass), or null. */
export function passwordCostProblem(c: Pick<Config, 'NODE_ENV' | 'PASSWORD_HASH_MEMORY_KIB' | 'PASSWORD_HASH_PASSES'>): string | null {
  if (c.NODE_ENV === 'test') return null;
  const low: string[] = [];
  if (c.PASSWORD_HASH_MEMORY_KIB < PASSWORD_HASH_FLOOR.memoryKiB)
    low.push(`PASSWORD_HASH_MEMORY_KIB: ${c.PASSWORD_HASH_MEMORY_KIB} is below OWASP's floor of ${PASSWORD_HASH_FLOOR.memoryKiB} KiB`);
  if (c.PASSWORD_HASH_PASSES < PASSWORD_HASH_FLOOR.passes)
    low.push(`PASSWORD_HASH_PASSES: ${c.PASSWORD_HASH_PASSES} is below OWASP's floor of ${PASSWORD_HASH_FLOOR.passes} passes`);
  return low.length > 0 ? `${low.join('\n  ')} (only NODE_ENV=test may go lower)` : null;
}

/** The webhook URL policy of a config (domain/ssrf.ts UrlPolicy). */
export function webhookUrlPolicy(c: Pick<Config, 'ALLOW_LOOPBACK_WEBHOOK_URLS' | 'ALLOW_PRIVATE_WEBHOOK_URLS'>): {
  loopback: boolean;
  private: boolean;
} {
  return { loopback: c.ALLOW_LOOPBACK_WEBHOOK_URLS, private: c.ALLOW_PRIVATE_WEBHOOK_URLS };
}

let cached: Config | undefined;
/** The process config, read once at start-up. */
export function config(): Config {
  cached ??= parseConfig();
  return cached;
}

/** For entry points: parse or exit(1) with a message naming the variable. */
export function loadConfigOrExit(): Config {
  try {
    return config();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * Production never pretends to send: the API and the worker refuse to start in production without
 * SMTP_URL (the file sink is for development and tests). Returns the problem, or null.
 */
export function productionSendingProblem(config: Pick<Config, 'NODE_ENV' | 'SMTP_URL'>): string | null {
  if (config.NODE_ENV !== 'production' || config.SMTP_URL) return null;
  return 'SMTP_URL is not set: with NODE_ENV=production mail must go to a real SMTP server (smtp://user:pass@host:587), not to files';
}

/**
 * Calendar credentials at rest need a key that outlives the machine: production refuses to start
 * without CALENDAR_CREDENTIALS_KEY (development generates one under .data/). Returns the problem, or null.
 */
export function productionCalendarKeyProblem(config: Pick<Config, 'NODE_ENV' | 'CALENDAR_CREDENTIALS_KEY'>): string | null {
  if (config.NODE_ENV !== 'production' || config.CALENDAR_CREDENTIALS_KEY) return null;
  return 'CALENDAR_CREDENTIALS_KEY is not set: with NODE_ENV=production calendar credentials need a key of 32 bytes (base64), e.g. `openssl rand -base64 32`';
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Settings that silently remove a protection are refused in production (docs/deployment.md):
 * RATE_LIMIT_DISABLED; no BASE_URL (links would point at http://localhost and the OAuth cookie
 * would lose `Secure`); an `http://` BASE_URL that is not loopback. Returns the problems, or null.
 */
export function productionProtectionProblem(config: Pick<Config, 'NODE_ENV' | 'RATE_LIMIT_DISABLED' | 'BASE_URL'>): string | null {
  if (config.NODE_ENV !== 'production') return null;
  const problems: string[] = [];
  if (config.RATE_LIMIT_DISABLED) {
    problems.push('RATE_LIMIT_DISABLED is set: with NODE_ENV=production the rate limits cannot be switched off; unset it');
  }
  if (!config.BASE_URL) {
    problems.push(
      'BASE_URL is not set: with NODE_ENV=production links and cookies need the public https address, e.g. BASE_URL=https://forms.example.com',
    );
  } else {
    const url = new URL(config.BASE_URL);
    if (url.protocol !== 'https:' && !LOOPBACK_HOSTS.has(url.hostname)) {
      problems.push(
        `BASE_URL is ${url.protocol}//${url.host}: with NODE_ENV=production it must be https (http only for a loopback address)`,
      );
    }
  }
  return problems.length > 0 ? problems.join('\n') : null;
}

/**
 * The suppression list's hashes must outlive the machine: production refuses to start without
 * MAIL_SUPPRESSION_KEY (development generates one under .data/). Returns the problem, or null.
 */
export function productionSuppressionKeyProblem(config: Pick<Config, 'NODE_ENV' | 'MAIL_SUPPRESSION_KEY'>): string | null {
  if (config.NODE_ENV !== 'production' || config.MAIL_SUPPRESSION_KEY) return null;
  return 'MAIL_SUPPRESSION_KEY is not set: with NODE_ENV=production the email suppression list needs a key of 32 bytes (base64), e.g. `openssl rand -base64 32`';
}

/** For the API and worker entry points: exit(1) naming the variable when production cannot send mail, keep its keys, or would run unprotected. */
export function requireProductionSending(config: Config): void {
  exitOnProblem(
    [
      productionSendingProblem(config),
      productionCalendarKeyProblem(config),
      productionSuppressionKeyProblem(config),
      productionProtectionProblem(config),
    ]
      .filter((p) => p !== null)
      .join('\n') || null,
  );
}

/** For entry points: exit(1) with the message when there is a problem (a production check). */
export function exitOnProblem(problem: string | null): void {
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}

/** The database URL, or exit with a hint (the API, the worker and the CLI all need one). */
export function requireDatabaseUrl(config: Config): string {
  if (!config.DATABASE_URL) {
    process.stderr.write('DATABASE_URL is not set. Run `npm run dev` (embedded Postgres) or set DATABASE_URL=postgres://…\n');
    process.exit(1);
  }
  return config.DATABASE_URL;
}
