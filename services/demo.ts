import fs from 'node:fs';
import path from 'node:path';
import { ALL_SCOPES } from '../core/scopes';
import { randomToken, sha256Hex } from '../core/crypto';
import { createDb } from '../db/knex';
import type { PasswordCost } from '../core/passwords';
import { createTeamWithOwner } from './accounts/users';
import { createApiKey } from './api-keys';

interface DemoFile {
  team_id: string;
  api_key: string;
  email: string;
  password: string;
}

/**
 * The demo team, owner and API key for `npm run dev`: created once, then reused.
 * The plain key is kept in `<dataDir>/demo.json` (local development only, mode 0600).
 */
export async function ensureDemoCredentials(
  databaseUrl: string,
  dataDir: string,
  passwordCost: PasswordCost,
): Promise<{ apiKey: string; email: string; password: string }> {
  const file = path.join(dataDir, 'demo.json');
  const db = createDb(databaseUrl, 2);
  try {
    if (fs.existsSync(file)) {
      const demo = JSON.parse(fs.readFileSync(file, 'utf8')) as DemoFile;
      const live = await db('api_keys')
        .where({ key_hash: sha256Hex(demo.api_key) })
        .whereNull('revoked_at')
        .first('id');
      if (live) return { apiKey: demo.api_key, email: demo.email, password: demo.password };
    }
    const password = randomToken(12);
    const email = `demo-${randomToken(4)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, 'x')}@example.com`;
    const demo = await db.transaction(async (trx) => {
      const { teamId, user } = await createTeamWithOwner(trx, {
        teamName: 'Demo team',
        plan: 'enterprise',
        email,
        password,
        name: 'Demo Owner',
        passwordCost,
      });
      const { secret } = await createApiKey({ db: trx }, { teamId, scopes: [...ALL_SCOPES], name: 'Demo key', createdBy: user.id });
      return { team_id: teamId, api_key: secret, email, password };
    });
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(demo, null, 2), { mode: 0o600 });
    return { apiKey: demo.api_key, email, password };
  } finally {
    await db.destroy();
  }
}
