import { ALL_SCOPES, type Plan, type Scope } from '../../core/scopes';
import type { Db } from '../../db/knex';
import { createTeamWithOwner } from '../../services/accounts/users';
import { createApiKey } from '../../services/api-keys';
import { createSession } from '../../services/sessions';
import { testConfig } from './config';
import { randomBytes } from 'node:crypto';

export interface TestTeam {
  teamId: string;
  userId: string;
  email: string;
  password: string;
  /** An API key with every scope. */
  apiKey: string;
  /** A dashboard session token of the owner. */
  session: string;
  /** Make another API key with chosen scopes. */
  keyWith(scopes: Scope[]): Promise<string>;
}

/** A team with its owner, an all-scopes API key and a dashboard session. */
export async function createTestTeam(db: Db, opts: { plan?: Plan; timezone?: string; password?: string } = {}): Promise<TestTeam> {
  const email = `owner-${randomBytes(5).toString('hex')}@example.com`;
  const password = opts.password ?? 'correct horse battery';
  const { teamId, user } = await db.transaction((trx) =>
    createTeamWithOwner(trx, {
      teamName: 'Test team',
      plan: opts.plan ?? 'enterprise',
      email,
      password,
      timezone: opts.timezone,
      passwordCost: testConfig(),
    }),
  );
  const { secret } = await createApiKey({ db }, { teamId, scopes: [...ALL_SCOPES], createdBy: user.id });
  const { token } = await createSession(db, { userId: user.id });
  return {
    teamId,
    userId: user.id,
    email,
    password,
    apiKey: secret,
    session: token,
    keyWith: async (scopes) => (await createApiKey({ db }, { teamId, scopes, createdBy: user.id })).secret,
  };
}
