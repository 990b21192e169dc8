import { buildAppDeps } from '../api/build-deps';
import { requireDatabaseUrl } from '../core/config';
import { createApp } from '../api/app';
import { exitOnProblem, loadConfigOrExit, requireProductionSending } from '../core/config';
import { productionSmsProblem } from '../services/sequences/sms-readiness';
import { logger } from '../core/logger';
import { migrateLatest } from '../db/migrate';
import { lazyClient } from '../temporal/lazy-client';
import { scrapedGauge, serveMetrics } from '../core/metrics';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  requireProductionSending(config);
  await migrateLatest(requireDatabaseUrl(config));
  const temporal = lazyClient(config);
  const deps = buildAppDeps(config, temporal);
  // After the migrations: the check reads the sequences (services/sequences/sms-readiness.ts).
  exitOnProblem(await productionSmsProblem(deps));
  const app = createApp(deps);
  const server = app.listen(config.PORT, config.HOST, () => {
    logger.info({ url: config.baseUrl }, 'API listening');
  });
  // Prometheus metrics on their own port, never on the public one (docs/operators.md "Metrics").
  if (config.METRICS_PORT) {
    scrapedGauge('fss_http_requests_in_flight', 'Requests the API holds now (bounded by MAX_IN_FLIGHT)', [], async () => [
      { labels: {}, value: app.context.inFlight() },
    ]);
    await serveMetrics(config.METRICS_PORT, config.METRICS_HOST);
  }
  server.keepAliveTimeout = 65_000;
  const stop = () => {
    logger.info('API shutting down');
    server.close(async () => {
      await deps.db.destroy();
      await deps.rateLimits.close();
      await deps.calendarWrites.close();
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
