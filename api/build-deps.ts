import type { Client } from '@temporalio/client';
import Redis from 'ioredis';
import { requireDatabaseUrl, type Config } from '../core/config';
import { logger } from '../core/logger';
import { videoProviders } from '../core/video';
import { createDb, type Db } from '../db/knex';
import { NoticeWaits } from '../db/notice-waits';
import { CALENDAR_WRITTEN_CHANNEL } from '../services/calendars/write-back';
import { OutboxStarter } from '../temporal/outbox';
import type { AppDeps } from './deps';
import { RateLimits } from './http/rate-limit';

/** Wire the API's dependencies from config. */
export function buildAppDeps(
  config: Config,
  temporal: { get: () => Promise<Client>; healthy: () => Promise<boolean> },
  db: Db = createDb(requireDatabaseUrl(config), config.DATABASE_POOL_MAX, { budgetMs: config.DATABASE_BUDGET_MS }),
): AppDeps {
  return {
    db,
    config,
    outbox: new OutboxStarter(db, temporal.get, config.TEMPORAL_TASK_QUEUE, config.TEMPORAL_MAX_CONCURRENT_STARTS, {
      kick: config.OUTBOX_STARTS_FROM === 'worker' ? 'notify' : 'start',
    }),
    rateLimits: new RateLimits(db, {
      publicPerMinute: config.RATE_LIMIT_PUBLIC_PER_MINUTE,
      pagesPerMinute: config.RATE_LIMIT_PAGES_PER_MINUTE,
      availabilityPerMinute: config.RATE_LIMIT_AVAILABILITY_PER_MINUTE,
      submitPerMinute: config.RATE_LIMIT_SUBMIT_PER_MINUTE,
      submitPerTargetPerMinute: config.RATE_LIMIT_SUBMIT_PER_TARGET_PER_MINUTE,
      submitPerTargetWindowSeconds: config.RATE_LIMIT_SUBMIT_PER_TARGET_WINDOW_SECONDS,
      disabled: config.RATE_LIMIT_DISABLED,
      apiKeyPerMinute: config.RATE_LIMIT_API_KEY_PER_MINUTE,
      syncMs: config.RATE_LIMIT_SYNC_MS,
      redis: config.REDIS_URL ? connectRedis(config.REDIS_URL) : undefined,
    }),
    temporalHealthy: temporal.healthy,
    calendarWrites: NoticeWaits.forDb(db, CALENDAR_WRITTEN_CHANNEL),
    video: videoProviders(config),
  };
}

function connectRedis(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  redis.on('error', (err) => logger.warn({ err: String(err) }, 'redis (rate limits) unavailable; counting in process'));
  return redis;
}
