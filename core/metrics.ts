import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics (docs/operators.md "Metrics"). Labels are closed sets only: a
 * route template, a method, a status, an outcome or a class; never a team, an address or an id.
 * Served on their own listener (METRICS_PORT), never on the public API's port.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'fss_' });

export const httpRequests = new Counter({
  name: 'fss_http_requests_total',
  help: 'API requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'fss_http_request_duration_seconds',
  help: 'API request latency, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const webhookAttempts = new Counter({
  name: 'fss_webhook_attempts_total',
  help: 'Webhook delivery attempts finished, by outcome (success, failure, gone, stopped, throttled, not_attempted)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** A gauge whose value is read when Prometheus scrapes (`read` returns label sets and values). */
export function scrapedGauge<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Promise<Array<{ labels: Partial<Record<L, string>>; value: number }>>,
): Gauge<L> {
  return new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      const rows = await read();
      this.reset();
      for (const { labels, value } of rows) this.set(labels, value);
    },
  });
}

/** GET /metrics on its own port (0: any free port; the tests read `port`). Anything else: 404. */
export async function serveMetrics(port: number, host: string): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') {
      res.statusCode = 404;
      res.end();
      return;
    }
    registry.metrics().then(
      (text) => {
        res.setHeader('Content-Type', registry.contentType);
        res.end(text);
      },
      (err: unknown) => {
        res.statusCode = 500;
        res.end(`# metrics failed: ${String(err)}\n`);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
