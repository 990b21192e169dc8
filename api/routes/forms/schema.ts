import { z } from 'zod';
import { paginationQuery } from '../../../services/pagination';
import { dataOf, listOf } from '../../../services/envelope';
import { zTimestamp, zUuid } from '../../../core/validate';
import { zForm, zFormAnalytics, zFormSummary, zSubmission, zSubmissionReceipt } from '../../../services/forms/present-schemas';
import { FORM_STATUSES } from '../../../services/forms/schemas';

/**
 * Request and answer schemas of the forms routes. The form and public-submission bodies are the
 * services' own input contracts (services/forms/schemas.ts: the services derive their input types
 * from them, and services may not import api/), so this file re-exports them.
 */
export { createFormBody, publicSubmissionBody, updateFormBody } from '../../../services/forms/schemas';

export const formListQuery = z.object({ ...paginationQuery, status: z.enum(FORM_STATUSES).optional() });
export const analyticsQuery = z.object({ since: zTimestamp.optional(), until: zTimestamp.optional() });
export const formParams = z.strictObject({ form_id: zUuid });
export const submissionListQuery = z.object({
  ...paginationQuery,
  since: zTimestamp.optional(),
  until: zTimestamp.optional(),
  status: z.enum(['completed', 'partial']).optional(),
});
export const submissionPatchBody = z.strictObject({ fields: z.record(z.string().max(64), z.unknown()) });
export const idOrSlugParams = z.strictObject({ id_or_slug: z.string().min(1).max(200).meta({ example: 'contact-us' }) });

export const formAnswer = dataOf(zForm);
export const formList = listOf(zFormSummary);
export const analyticsAnswer = dataOf(zFormAnalytics);
export const submissionAnswer = dataOf(zSubmission);
export const submissionList = listOf(zSubmission);
export const submissionReceipt = dataOf(zSubmissionReceipt);
