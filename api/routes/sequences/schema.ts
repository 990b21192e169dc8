import { z } from 'zod';
import { paginationQuery } from '../../../services/pagination';
import { dataOf, listOf } from '../../../services/envelope';
import { zUuid } from '../../../core/validate';
import { zEnrollment, zSequence, zSequenceAnalytics, zStep, zUnsubscribe } from '../../../services/sequences/present';

/**
 * Request and answer schemas of the sequences routes. The sequence, enroll and unsubscribe bodies
 * are the services' own input contracts (services/sequences/schemas.ts), re-exported here.
 */
export { zEnrollBody, zSequenceCreate, zSequencePatch, zUnsubscribeBody } from '../../../services/sequences/schemas';

export const sequenceListQuery = z.object({ ...paginationQuery, status: z.enum(['draft', 'active', 'paused', 'archived']).optional() });
export const enrollmentListQuery = z.object({
  ...paginationQuery,
  status: z.enum(['active', 'completed', 'exited', 'skipped']).optional(),
  contact_id: zUuid.optional(),
});
export const enrollmentParams = z.strictObject({ id: zUuid, enrollment_id: zUuid });
export const unsubscribeListQuery = z.object({ ...paginationQuery, channel: z.enum(['email', 'sms']).optional() });
export const unsubscribeParams = z.strictObject({ contact_id: zUuid });
export const unsubscribeRemoveQuery = z.object({
  override_contact_unsubscribe: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .meta({ description: 'Also remove unsubscribes the contact made itself (STOP, one-click, complaint); the removal is recorded' }),
  reason: z.string().min(1).max(500).optional().meta({ description: 'Why, kept with the override record' }),
});

const zToken = z
  .string()
  .regex(/^[A-Za-z0-9_-]{10,64}$/, { error: 'must be a message token' })
  .meta({ example: 'k3J9x_Q2mZ8wLr4T' });
export const tokenParams = z.strictObject({ token: zToken });
export const oneClickBody = z.strictObject({ 'List-Unsubscribe': z.literal('One-Click').optional() });
export const clickParams = z.strictObject({
  token: zToken,
  index: z
    .string()
    .regex(/^\d{1,3}$/, { error: 'must be a link number' })
    .meta({ example: '0' })
    .transform(Number),
});
export const twilioForm = z.record(z.string().max(100), z.string().max(5000));

export const sequenceAnswer = dataOf(zSequence);
export const sequenceList = listOf(zSequence);
export const stepList = listOf(zStep);
export const analyticsAnswer = dataOf(zSequenceAnalytics);
export const enrollmentList = listOf(zEnrollment);
export const enrollAnswer = dataOf(z.array(zEnrollment)).meta({
  description: 'One enrollment per contact: active, or skipped with skip_reason',
});
export const unsubscribeList = listOf(zUnsubscribe);
export const unsubscribeAnswer = dataOf(z.array(zUnsubscribe));
