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
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'User' });

export const zMe = zUser
  .extend({
    credential: z.enum(['api_key', 'oauth', 'session']).meta({ description: 'The kind of credential that made the call' }),
    scopes: z.array(z.enum(ALL_SCOPES)),
  })
  .meta({ id: 'Me' });

export const zTeam = z
  .strictObject({
    id: zId,
    name: z.string(),
    plan: z.enum(PLANS),
    settings: z.record(z.string(), z.unknown()),
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'Team' });

export const zApiKey = z
  .strictObject({
    id: zId,
    name: z.string().nullable(),
    prefix: z.string().meta({ description: 'The first 12 characters of the key, to recognise it' }),
    scopes: z.array(z.enum(ALL_SCOPES)),
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
