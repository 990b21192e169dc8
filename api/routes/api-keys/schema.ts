import { z } from 'zod';
import { ALL_SCOPES } from '../../../core/scopes';
import { dataOf, listOf } from '../../../services/envelope';
import { zApiKey, zApiKeyWithSecret } from '../../../services/account-schemas';

/** Request and answer schemas of the API-key routes. */

export const createBody = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  scopes: z.array(z.enum(ALL_SCOPES)).min(1).optional(),
  mode: z.enum(['live', 'test']).optional(),
});
export const apiKeyAnswer = dataOf(zApiKey);
export const apiKeyList = listOf(zApiKey);
export const apiKeyWithSecretAnswer = dataOf(zApiKeyWithSecret);
