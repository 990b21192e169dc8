import { buildAppDeps } from '../api/build-deps';
import { requireDatabaseUrl } from '../core/config';
import { createApp } from '../api/app';
import { exitOnProblem, loadConfigOrExit, requireProductionSending } from '../core/config';
import { productionSmsProblem } from '../services/sequences/sms-readiness';
import { logger } from '../core/logger';
import { migrateLatest } from '../db/migrate';
import { lazyClient } from '../temporal/lazy-client';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  requireProductionSending(config);
  await migrateLatest(requireDatabaseUrl(config));
  const temporal = lazyClient(config);
  const deps = buildAppDeps(config, temporal);
  // After the migrations: the check reads the sequences (services/sequences/sms-readiness.ts).
  exitOnProblem(await productionSmsProblem(deps));
  const server = createApp(deps).listen(config.PORT, config.HOST, () => {
    logger.info({ url: config.baseUrl }, 'API listening');
  });
  server.keepAliveTimeout = 65_000;
  const stop = () => {
    logger.info('API shutting down');
    server.close(async () => {
      await deps.db.destroy();
      await deps.rateLimits.close();
      await temporal.close();
      process.exit(0);
    });
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  logger.fatal({ err }, 'API failed to start');
  process.exit(1);
});
