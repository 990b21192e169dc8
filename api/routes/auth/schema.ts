import { z } from 'zod';
import { dataOf } from '../../../services/envelope';
import { zSession } from '../../../services/account-schemas';

/** Request and answer schemas of the dashboard sign-in routes. */

export const loginBody = z.strictObject({ email: z.email().max(320), password: z.string().min(1).max(1024) });
export const sessionAnswer = dataOf(zSession);
