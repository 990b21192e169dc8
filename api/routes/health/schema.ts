import { z } from 'zod';

const part = z.enum(['up', 'down']);

/** The health answer (also the body of the 503 when a part is down). */
export const healthAnswer = z.strictObject({ status: z.enum(['ok', 'degraded']), postgres: part, temporal: part }).meta({ id: 'Health' });

/** Liveness: the process answers. */
export const liveAnswer = z.strictObject({ status: z.literal('ok') }).meta({ id: 'Liveness' });

/** Readiness: 200 while PostgreSQL answers; Temporal is shown but does not decide (the outbox keeps the work). */
export const readyAnswer = z
  .strictObject({ status: z.enum(['ready', 'unready']), postgres: part, temporal: part })
  .meta({ id: 'Readiness' });
