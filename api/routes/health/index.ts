import { defineRoute } from '../../http/route';
import { probeDependencies } from './probe';
import { healthAnswer, liveAnswer, readyAnswer } from './schema';

const upDown = (up: boolean) => (up ? 'up' : 'down');

export const healthRoutes = [
  defineRoute({
    method: 'get',
    path: '/healthz',
    auth: 'public',
    rateLimit: 'pages',
    summary: 'Health: 200 when Postgres and Temporal answer, 503 naming the part that is down (within 2 s); balancers use /readyz',
    tags: ['health'],
    response: healthAnswer,
    alsoFor: [503],
    examples: {
      byStatus: { 200: { status: 'ok', postgres: 'up', temporal: 'up' }, 503: { status: 'degraded', postgres: 'up', temporal: 'down' } },
    },
    raw: true,
    handler: async ({ ctx, deps }) => {
      const { postgres, temporal } = await probeDependencies(deps);
      ctx.status = postgres && temporal ? 200 : 503;
      ctx.body = { status: postgres && temporal ? 'ok' : 'degraded', postgres: upDown(postgres), temporal: upDown(temporal) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/livez',
    auth: 'public',
    rateLimit: 'none',
    summary: 'Liveness: 200 while the process answers; touches no dependency',
    tags: ['health'],
    response: liveAnswer,
    raw: true,
    handler: async ({ ctx }) => {
      ctx.status = 200;
      ctx.body = { status: 'ok' };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/readyz',
    auth: 'public',
    rateLimit: 'none',
    summary: 'Readiness: 200 while PostgreSQL answers, 503 when not (within 2 s); Temporal is shown but does not decide',
    tags: ['health'],
    response: readyAnswer,
    alsoFor: [503],
    examples: {
      byStatus: {
        200: { status: 'ready', postgres: 'up', temporal: 'down' },
        503: { status: 'unready', postgres: 'down', temporal: 'up' },
      },
    },
    raw: true,
    handler: async ({ ctx, deps }) => {
      const { postgres, temporal } = await probeDependencies(deps);
      ctx.status = postgres ? 200 : 503;
      ctx.body = { status: postgres ? 'ready' : 'unready', postgres: upDown(postgres), temporal: upDown(temporal) };
    },
  }),
];
