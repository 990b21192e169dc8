import { z } from 'zod';
import { defineRoute } from '../http/route';

export const healthRoutes = [
  defineRoute({
    method: 'get',
    path: '/healthz',
    auth: 'public',
    rateLimit: 'pages',
    summary: 'Health: 200 when Postgres and Temporal answer, 503 naming the part that is down',
    tags: ['health'],
    response: z.object({ status: z.enum(['ok', 'degraded']), postgres: z.enum(['up', 'down']), temporal: z.enum(['up', 'down']) }),
    raw: true,
    handler: async ({ ctx, deps }) => {
      const [pg, temporal] = await Promise.all([
        deps.db.raw('select 1').then(
          () => true,
          () => false,
        ),
        deps.temporalHealthy().catch(() => false),
      ]);
      ctx.status = pg && temporal ? 200 : 503;
      ctx.body = { status: pg && temporal ? 'ok' : 'degraded', postgres: pg ? 'up' : 'down', temporal: temporal ? 'up' : 'down' };
    },
  }),
];
