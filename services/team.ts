import type { ServiceDeps } from './deps';
import type { Role } from '../core/scopes';
import { conflict, notFound } from '../core/errors';
import { paginate, type Page } from './pagination';
import { createUser, emailTaken, presentUser, USER_COLUMNS, type UserRow } from './accounts/users';
import { teamMailBlocks, type MailBlocks } from './mail/blocks';

type TeamFields = { id: string; name: string; plan: string; settings: unknown; created_at: Date; updated_at: Date };

/** The team, with its read-only count of mail blocks by reason (docs/sequences.md "Blocks"). */
export function presentTeam(t: TeamFields, mailBlocks: MailBlocks) {
  return {
    id: t.id,
    name: t.name,
    plan: t.plan,
    settings: t.settings,
    mail_blocks: mailBlocks,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}

export async function getTeam(deps: Pick<ServiceDeps, 'db'>, { teamId }: { teamId: string }) {
  const { db } = deps;
  const team = await db('teams').where({ id: teamId }).first();
  if (!team) throw notFound('Team');
  return presentTeam(team, await teamMailBlocks(db, { teamId }));
}

export async function updateTeam(
  deps: Pick<ServiceDeps, 'db'>,
  { teamId, changes: patch }: { teamId: string; changes: { name?: string; settings?: Record<string, unknown> } },
) {
  const { db } = deps;
  const current = await getTeam(deps, { teamId });
  const settings = patch.settings ? { ...(current.settings as object), ...patch.settings } : undefined;
  const [team] = await db('teams')
    .where({ id: teamId })
    .update({ ...(patch.name !== undefined ? { name: patch.name } : {}), ...(settings ? { settings } : {}), updated_at: db.fn.now() })
    .returning('*');
  return presentTeam(team, current.mail_blocks);
}

export function listMembers(deps: Pick<ServiceDeps, 'db'>, { teamId, page }: { teamId: string; page: Page }) {
  const { db } = deps;
  return paginate(
    db('users').where({ team_id: teamId }).whereNull('removed_at').select(USER_COLUMNS),
    page,
    [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ],
    (u: UserRow) => presentUser(u),
  );
}

export async function addMember(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  {
    teamId,
    values: input,
  }: { teamId: string; values: { email: string; name?: string; role: Exclude<Role, 'owner'>; password?: string; timezone?: string } },
) {
  const { db } = deps;
  if (await emailTaken(deps, { email: input.email })) throw conflict('A user with this email already exists');
  const user = await db.transaction((trx) => createUser(trx, { teamId, ...input, passwordCost: deps.config }));
  return presentUser(user);
}
