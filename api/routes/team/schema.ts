import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../services/accounts/password-policy';
import { z } from 'zod';
import { ROLES } from '../../../core/scopes';
import { paginationQuery } from '../../../services/pagination';
import { dataOf, listOf } from '../../../services/envelope';
import { zIanaZone, zUuid } from '../../../core/validate';
import { zInvitation, zRemovalReport, zTeam, zUser } from '../../../services/account-schemas';

/** Request and answer schemas of the team, member and invitation routes. */

export const teamPatchBody = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  settings: z.record(z.string().max(100), z.unknown()).optional(),
});
export const memberListQuery = z.object(paginationQuery);
export const memberBody = z.strictObject({
  email: z.email().max(320),
  name: z.string().trim().min(1).max(200).optional(),
  role: z.enum(['admin', 'member']).default('member'),
  password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH).optional().meta({
    description: 'At least 10 characters, at most 200, not containing the email address (docs/accounts.md "One password policy")',
  }),
  timezone: zIanaZone.optional(),
});
export const memberParams = z.strictObject({ user_id: zUuid });
export const roleBody = z.strictObject({ role: z.enum(ROLES) });
export const invitationListQuery = z.object({
  ...paginationQuery,
  status: z.enum(['pending', 'accepted', 'revoked', 'expired']).optional(),
});
export const invitationBody = z.strictObject({ email: z.email().max(320), role: z.enum(ROLES).default('member') });
export const invitationParams = z.strictObject({ id: zUuid });

export const teamAnswer = dataOf(zTeam);
export const memberAnswer = dataOf(zUser);
export const memberList = listOf(zUser);
export const removalReport = dataOf(zRemovalReport);
export const invitationAnswer = dataOf(zInvitation);
export const invitationList = listOf(zInvitation);
