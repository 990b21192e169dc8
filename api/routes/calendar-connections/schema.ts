import { z } from 'zod';
import { paginationQuery } from '../../../services/pagination';
import { dataOf, listOf } from '../../../services/envelope';
import { zUuid } from '../../../core/validate';
import { zConnection } from '../../../services/calendars/present';

/** Request and answer schemas of the calendar connection routes (bodies are the service's input contracts). */
export { createConnectionBody, patchConnectionBody } from '../../../services/calendars/schemas';

export const connectionListQuery = z.object({
  ...paginationQuery,
  user_id: zUuid.optional(),
  status: z.enum(['ok', 'syncing', 'error', 'stale', 'needs_reauth']).optional(),
});

export const connectionAnswer = dataOf(zConnection);
export const connectionList = listOf(zConnection);
