import { databaseIsUp } from '../../../services/health/check';
import { defineRoute } from '../../http/route';
import { healthAnswer } from './schema';

export const healthRoutes = [
  defineRoute({
    method: 'get',
    path: '/healthz',
    auth: 'public',
    rateLimit: 'pages',
    summary: 'Health: 200 when Postgres and Temporal answer, 503 naming the part that is down',
    tags: ['health'],
    response: healthAnswer,
    alsoFor: [503],
    examples: {
      byStatus: { 200: { status: 'ok', postgres: 'up', temporal: 'up' }, 503: { status: 'degraded', postgres: 'up', temporal: 'down' } },
    },
    raw: true,
    handler: async ({ ctx, deps }) => {
      const [pg, temporal] = await Promise.all([databaseIsUp(deps, {}), deps.temporalHealthy().catch(() => false)]);
      ctx.status = pg && temporal ? 200 : 503;
      ctx.body = { status: pg && temporal ? 'ok' : 'degraded', postgres: pg ? 'up' : 'down', temporal: temporal ? 'up' : 'down' };
    },
  }),
];
