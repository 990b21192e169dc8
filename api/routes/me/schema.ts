import { z } from 'zod';
import { paginationQuery } from '../../../services/pagination';
import { dataOf, listOf } from '../../../services/envelope';
import { zIanaZone, zUuid } from '../../../core/validate';
import { zMe, zMySession, zProfile, zRevokedCount } from '../../../services/account-schemas';

/** Request and answer schemas of the acting user's routes. */

const zAvatarUrl = z
  .url({ protocol: /^https$/, error: 'must be an https URL' })
  .max(2000)
  .nullable();

export const mePatchBody = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  timezone: zIanaZone.optional(),
  avatar_url: zAvatarUrl.optional(),
  email: z.email().max(320).optional(),
  current_password: z.string().min(1).max(1024).optional(),
});
export const sessionListQuery = z.object(paginationQuery);
export const sessionParams = z.strictObject({ id: zUuid });

export const meAnswer = dataOf(zMe);
export const profileAnswer = dataOf(zProfile);
export const sessionList = listOf(zMySession);
export const revokedAnswer = dataOf(zRevokedCount);
