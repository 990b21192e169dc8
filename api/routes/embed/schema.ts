import { z } from 'zod';

/** `?v=<hash>` pins a version of the embed script (cached for a year). */
export const embedQuery = z.looseObject({ v: z.string().max(64).optional() });
