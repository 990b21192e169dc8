import { parseArgs } from 'node:util';
import { createTeamWithOwner } from '../services/accounts/users';
import { createApiKey, firstOwnerId, revokeTeamApiKey } from '../services/api-keys';
import { emailKeyQuery } from '../services/operators/email-key';
import { parseConfig } from '../core/config';
import { randomToken } from '../core/crypto';
import { ALL_SCOPES, isScope, PLANS, type Plan, type Scope } from '../core/scopes';
import { ensureEmbeddedPostgres } from '../db/embedded';
import { createDb, type Db } from '../db/knex';
import { migrateLatest } from '../db/migrate';
import { runningDev } from './dev/state';

/**
 * The CLI contract (stable; integrators and our acceptance checks use it):
 *   bootstrap --json [--team NAME] [--email E] [--password PW] [--plan free|pro|enterprise] [--scopes "a b"] [--timezone IANA]
 *   keys create --team-id ID [--scopes "a b"] [--name N] [--json]
 *   keys revoke --id ID
 *   staff grant --email E
 *   migrate
 *   temporal email-key --email E [--json]   (the Temporal UI query for a contact's workflows; docs/operators.md)
 * Only the result goes to stdout (one JSON line with --json); messages go to stderr.
 */

class UsageError extends Error {}

function parseScopes(raw: string | undefined): Scope[] {
  if (!raw) return [...ALL_SCOPES];
  const list = raw.split(/[\s,]+/).filter(Boolean);
  const bad = list.filter((s) => !isScope(s));
  if (bad.length) throw new UsageError(`unknown scope(s): ${bad.join(', ')}. Known: ${ALL_SCOPES.join(' ')}`);
  return [...new Set(list)] as Scope[];
}

async function withDatabase<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const config = parseConfig();
  let url = config.DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  if (!url) {
    const pg = await ensureEmbeddedPostgres({ dataDir: config.dataDir, name: 'dev' });
    url = pg.url;
    stop = pg.stop;
  }
  await migrateLatest(url);
  const db = createDb(url, 2);
  try {
    return await fn(db);
  } finally {
    await db.destroy();
    if (stop) await stop();
  }
}

/** BASE_URL when set; else the URL of the `npm run dev` running on DATA_DIR; else http://localhost:$PORT. */
function apiBaseUrl(): string {
  const config = parseConfig();
  if (process.env.BASE_URL) return config.baseUrl;
  return runningDev(config.dataDir)?.base_url ?? config.baseUrl;
}

function out(json: boolean, value: Record<string, unknown>, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      team: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      plan: { type: 'string' },
      scopes: { type: 'string' },
      timezone: { type: 'string' },
      'team-id': { type: 'string' },
      id: { type: 'string' },
      name: { type: 'string' },
    },
  });
  const cmd = positionals.join(' ');
  const baseUrl = apiBaseUrl();

  switch (cmd) {
    case 'bootstrap': {
      const plan = (values.plan ?? 'enterprise') as Plan;
      if (!PLANS.includes(plan)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
      const scopes = parseScopes(values.scopes);
      const tz = values.timezone ?? 'UTC';
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: tz });
      } catch {
        throw new UsageError(`--timezone: unknown IANA time zone "${tz}"`);
      }
      const email =
        values.email ??
        `owner-${randomToken(6)
          .toLowerCase()
          .replace(/[^a-z0-9]/g, '0')}@example.com`;
      const passwordCost = parseConfig(); // the owner's password is hashed at PASSWORD_HASH_*'s cost
      const result = await withDatabase((db) =>
        db.transaction(async (trx) => {
          if (await trx('users').where({ email }).first('id')) throw new UsageError(`a user with email ${email} already exists`);
          const { teamId, user } = await createTeamWithOwner(trx, {
            teamName: values.team ?? 'My team',
            plan,
            email,
            password: values.password ?? null,
            timezone: tz,
            passwordCost,
          });
          const { secret } = await createApiKey({ db: trx }, { teamId, scopes, name: 'bootstrap', createdBy: user.id });
          return { team_id: teamId, user_id: user.id, api_key: secret, base_url: baseUrl };
        }),
      );
      return out(values.json, result, `team ${result.team_id}\nuser ${result.user_id}\napi key ${result.api_key}\nbase url ${baseUrl}`);
    }
    case 'keys create': {
      const teamId = values['team-id'];
      if (!teamId || !/^[0-9a-f-]{36}$/i.test(teamId)) throw new UsageError('--team-id must be a team UUID');
      const scopes = parseScopes(values.scopes);
      const result = await withDatabase(async (db) => {
        if (!(await db('teams').where({ id: teamId }).first('id'))) throw new UsageError(`no team ${teamId}`);
        // The operator makes the key for the team: it acts as the team's first owner.
        const owner = await firstOwnerId({ db }, { teamId });
        if (!owner) throw new UsageError(`team ${teamId} has no active owner for the key to act as`);
        const { key, secret } = await createApiKey({ db }, { teamId, scopes, name: values.name ?? 'cli', createdBy: owner });
        return { id: key.id, api_key: secret, scopes: key.scopes };
      });
      return out(values.json, result, `key ${result.id}\napi key ${result.api_key}\nscopes ${result.scopes.join(' ')}`);
    }
    case 'keys revoke': {
      const id = values.id;
      if (!id || !/^[0-9a-f-]{36}$/i.test(id)) throw new UsageError('--id must be an API key UUID');
      await withDatabase(async (db) => {
        const key = await db('api_keys').where({ id }).first('team_id');
        if (!key) throw new UsageError(`no API key ${id}`);
        await revokeTeamApiKey({ db }, { teamId: key.team_id, id });
      });
      return out(values.json, { id, revoked: true }, `revoked ${id}`);
    }
    case 'staff grant': {
      const email = values.email;
      if (!email) throw new UsageError('--email is required');
      const n = await withDatabase((db) => db('users').where({ email }).update({ is_staff: true }));
      if (!n) throw new UsageError(`no user with email ${email}`);
      return out(values.json, { email, is_staff: true }, `${email} is now staff`);
    }
    case 'migrate': {
      await withDatabase(async () => undefined);
      return out(values.json, { migrated: true }, 'migrated');
    }
    case 'temporal email-key': {
      const email = values.email;
      if (!email || !email.includes('@')) throw new UsageError('--email is required (an email address)');
      const query = await withDatabase((db) => emailKeyQuery({ db }, { email }));
      return out(values.json, { email, query }, query);
    }
    default:
      throw new UsageError(
        `unknown command "${cmd}". Commands: bootstrap, keys create, keys revoke, staff grant, migrate, temporal email-key`,
      );
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(
      `${err instanceof UsageError || (err as Error)?.name === 'TypeError' ? '' : 'error: '}${(err as Error).message}\n`,
    );
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
