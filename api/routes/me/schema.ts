import { z } from 'zod';
import { dataOf } from '../../../services/envelope';
import { zIanaZone } from '../../../core/validate';
import { zMe, zUser } from '../../../services/account-schemas';

/** Request and answer schemas of the acting user's routes. */

export const mePatchBody = z.strictObject({ name: z.string().trim().min(1).max(200).optional(), timezone: zIanaZone.optional() });
export const meAnswer = dataOf(zMe);
export const userAnswer = dataOf(zUser);
