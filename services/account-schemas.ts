import { z } from 'zod';
import { ALL_SCOPES, PLANS, ROLES } from '../core/scopes';
import { zId, zIsoTime } from './envelope';

/** Answer schemas of users, teams, API keys and sessions: the shapes of presentUser, presentTeam, presentApiKey, login. */

export const zUser = z
  .strictObject({
    id: zId,
    team_id: zId,
    email: z.string(),
    name: z.string().nullable(),
    role: z.enum(ROLES),
    timezone: z.string(),
    avatar_url: z.string().nullable(),
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'User' });

/** PATCH /api/v1/me: the user, and the address waiting for confirmation after an email change. */
export const zProfile = zUser
  .extend({ pending_email: z.string().optional().meta({ description: 'Takes effect once confirmed from the new address' }) })
  .meta({ id: 'Profile' });

export const zMySession = z
  .strictObject({
    id: zId,
    created_at: zIsoTime,
    last_used_at: zIsoTime.nullable(),
    expires_at: zIsoTime,
    user_agent: z.string().nullable(),
    ip: z.string().nullable(),
    current: z.boolean().meta({ description: 'The session making this request' }),
  })
  .meta({ id: 'UserSession' });

export const zRevokedCount = z.strictObject({ revoked: z.number().int() }).meta({ id: 'RevokedSessions' });

/** What a removed member still hosts (DELETE /api/v1/team/members/{user_id} with Prefer: return=representation). */
export const zRemovalReport = z
  .strictObject({
    user_id: zId,
    removed_at: zIsoTime,
    revoked: z.strictObject({ sessions: z.number().int(), api_keys: z.array(zId), oauth_tokens: z.number().int() }),
    upcoming_meetings: z.array(
      z.strictObject({
        id: zId,
        title: z.string(),
        status: z.string(),
        start_time: zIsoTime,
        end_time: zIsoTime,
        scheduling_page_id: zId.nullable(),
      }),
    ),
    scheduling_pages: z.array(
      z.strictObject({ id: zId, title: z.string(), slug: z.string(), status: z.string(), other_hosts: z.number().int() }),
    ),
  })
  .meta({ id: 'MemberRemovalReport' });

export const zInvitation = z
  .strictObject({
    id: zId,
    email: z.string(),
    role: z.enum(ROLES),
    status: z.enum(['pending', 'accepted', 'revoked', 'expired']),
    invited_by: zId.nullable(),
    send_count: z.number().int(),
    last_sent_at: zIsoTime,
    expires_at: zIsoTime,
    accepted_user_id: zId.nullable(),
    accepted_at: zIsoTime.nullable(),
    revoked_at: zIsoTime.nullable(),
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'Invitation' });

export const zResetRequested = z.strictObject({ accepted: z.literal(true), message: z.string() }).meta({ id: 'PasswordResetRequested' });

export const zMe = zUser
  .extend({
    credential: z.enum(['api_key', 'oauth', 'session']).meta({ description: 'The kind of credential that made the call' }),
    scopes: z.array(z.enum(ALL_SCOPES)),
  })
  .meta({ id: 'Me' });

const zMailBlock = z.strictObject({ count: z.number().int(), last_at: zIsoTime.nullable() });
const zMailBlocks = z.strictObject({ reputation: zMailBlock, authentication: zMailBlock, content: zMailBlock, policy: zMailBlock }).meta({
  id: 'MailBlocks',
  description:
    'Read-only. Messages the receiving servers refused for the sending reputation, sender authentication (DMARC, SPF, DKIM), content or a sender policy: a block never suppresses the address (docs/sequences.md "Blocks")',
});

export const zTeam = z
  .strictObject({
    id: zId,
    name: z.string(),
    plan: z.enum(PLANS),
    settings: z.record(z.string(), z.unknown()),
    mail_blocks: zMailBlocks,
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'Team' });

export const zApiKey = z
  .strictObject({
    id: zId,
    name: z.string().nullable(),
    prefix: z.string().meta({ description: 'The first 12 characters of the key, to recognise it' }),
    scopes: z.array(z.enum(ALL_SCOPES)).meta({ description: "Asked for at creation; the key uses those its creator's role allows now" }),
    created_by: zId
      .nullable()
      .meta({ description: 'The user the key acts as (null only for a key of an unknown creator, which does not work)' }),
    mode: z.enum(['live', 'test']),
    last_used_at: zIsoTime.nullable(),
    revoked_at: zIsoTime.nullable(),
    created_at: zIsoTime,
  })
  .meta({ id: 'ApiKey' });

export const zApiKeyWithSecret = zApiKey
  .extend({ api_key: z.string().meta({ description: 'The secret key, shown in this response only' }) })
  .meta({ id: 'ApiKeyWithSecret' });

export const zSession = z.strictObject({ token: z.string(), expires_at: zIsoTime, user_id: zId, team_id: zId }).meta({ id: 'Session' });
