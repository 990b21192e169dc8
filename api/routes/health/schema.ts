import { z } from 'zod';

/** The health answer (also the body of the 503 when a part is down). */
export const healthAnswer = z
  .strictObject({ status: z.enum(['ok', 'degraded']), postgres: z.enum(['up', 'down']), temporal: z.enum(['up', 'down']) })
  .meta({ id: 'Health' });
