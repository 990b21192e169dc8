import { jsonb } from '../../db/jsonb';
import type { UsersRow } from '../../db/tables';
import type { Executor } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import { hashPassword, type PasswordCost } from '../../core/passwords';
import type { Plan, Role } from '../../core/scopes';
import { validationFailed } from '../../core/errors';
import { passwordProblem } from './password-policy';

export const DEFAULT_RULES = [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00', enabled: true }));

/** A user as the API shows it (never the password hash). */
export type UserRow = Pick<UsersRow, (typeof USER_COLUMNS)[number]>;

export const USER_COLUMNS = [
  'id',
  'team_id',
  'email',
  'name',
  'role',
  'timezone',
  'is_staff',
  'avatar_url',
  'created_at',
  'updated_at',
] as const;

export function presentUser(u: UserRow) {
  return {
    id: u.id,
    team_id: u.team_id,
    email: u.email,
    name: u.name,
    role: u.role,
    timezone: u.timezone,
    avatar_url: u.avatar_url ?? null,
    created_at: u.created_at,
    updated_at: u.updated_at,
  };
}

export async function getUser(
  deps: Pick<ServiceDeps, 'db'>,
  { teamId, userId }: { teamId: string; userId: string },
): Promise<UserRow | undefined> {
  const { db } = deps;
  return db('users')
    .where({ id: userId, team_id: teamId })
    .whereNull('removed_at')
    .first(...USER_COLUMNS);
}

export async function emailTaken(deps: Pick<ServiceDeps, 'db'>, { email }: { email: string }): Promise<boolean> {
  return !!(await deps.db('users').where({ email }).first('id'));
}

export interface NewUserInput {
  teamId: string;
  email: string;
  name?: string | null;
  password?: string | null;
  /** What a password is hashed at: the config's PASSWORD_HASH_* settings (the Config itself will do). */
  passwordCost: PasswordCost;
  role: Role;
  timezone?: string;
}

/**
 * Add a user to a team, with the default availability schedule (Mon–Fri 09:00–17:00 in their timezone).
 * A password must pass the one policy (accounts/password-policy.ts): 400 `validation_failed` on `body.password`.
 */
export async function createUser(trx: Executor, input: NewUserInput): Promise<UserRow> {
  const problem = input.password ? passwordProblem(input.password, input.email) : null;
  if (problem) throw validationFailed([{ path: 'body.password', message: problem }]);
  const [user] = await trx('users')
    .insert({
      team_id: input.teamId,
      email: input.email,
      name: input.name ?? null,
      password_hash: input.password ? await hashPassword(input.passwordCost, input.password) : null,
      role: input.role,
      timezone: input.timezone ?? 'UTC',
    })
    .returning(USER_COLUMNS);
  await trx('availability_schedules').insert({
    team_id: input.teamId,
    user_id: user.id,
    name: 'Working hours',
    timezone: user.timezone,
    is_default: true,
    rules: jsonb(DEFAULT_RULES),
  });
  return user;
}

export interface NewTeamInput {
  teamName: string;
  plan: Plan;
  email: string;
  password?: string | null;
  /** What the owner's password is hashed at: the config's PASSWORD_HASH_* settings. */
  passwordCost: PasswordCost;
  name?: string | null;
  timezone?: string;
}

export async function createTeamWithOwner(trx: Executor, input: NewTeamInput): Promise<{ teamId: string; user: UserRow }> {
  const [team] = await trx('teams').insert({ name: input.teamName, plan: input.plan }).returning(['id']);
  const user = await createUser(trx, {
    teamId: team.id,
    email: input.email,
    name: input.name,
    password: input.password,
    passwordCost: input.passwordCost,
    role: 'owner',
    timezone: input.timezone,
  });
  return { teamId: team.id, user };
}
