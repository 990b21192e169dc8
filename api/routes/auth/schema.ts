import { z } from 'zod';
import { dataOf } from '../../../services/envelope';
import { zResetRequested, zSession } from '../../../services/account-schemas';

/** Request and answer schemas of the dashboard sign-in and password-reset routes. */

export const loginBody = z.strictObject({ email: z.email().max(320), password: z.string().min(1).max(1024) });
export const resetBody = z.strictObject({ email: z.email().max(320) });
export const sessionAnswer = dataOf(zSession);
export const resetAnswer = dataOf(zResetRequested);
