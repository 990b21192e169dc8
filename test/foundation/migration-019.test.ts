import { randomUUID } from 'node:crypto';
import { config } from '../../core/config';
import { migrationConfig } from '../../db/migrate';
import { openWebhookSecret } from '../../services/webhooks/secrets';
import { type TestDatabase } from '../helpers/db';
import { createTestTeam } from '../helpers/fixtures';
import { useApiWorld } from '../helpers/world';

/**
 * Migration 019_roles_secrets on rows that existed before it: a webhook's signing secrets in the
 * clear become sealed (and only sealed), and a key without a recorded creator gets the team's
 * first owner. Run down to 018, write rows as the old code did, and up again.
 */

/** Down, one migration at a time (later ones included), until `last` is the newest one applied. */
async function downTo(db: TestDatabase['db'], last: string): Promise<void> {
  for (;;) {
    const [done] = (await db.migrate.list(migrationConfig)) as [Array<string | { name: string }>, unknown];
    const names = done.map((m) => (typeof m === 'string' ? m : m.name));
    if (names.length === 0 || names[names.length - 1] === last) return;
    await db.migrate.down(migrationConfig);
  }
}
const w = useApiWorld({ app: false, team: false });

test('seals existing webhook secrets and gives creatorless keys the first owner', async () => {
  const team = await createTestTeam(w.tdb.db);
  const db = w.tdb.db;
  await downTo(db, '018_mail_truth');
  const secret = `whsec_${randomUUID().replace(/-/g, '')}`;
  const previous = `whsec_${randomUUID().replace(/-/g, '')}`;
  const [sub] = await db
    .raw(
      `insert into webhook_subscriptions (team_id, url, description, events, status, secret, previous_secret)
     values (?, 'https://hooks.example.com/a', '', '{submission.created}', 'active', ?, ?) returning id`,
      [team.teamId, secret, previous],
    )
    .then((r: { rows: Array<{ id: string }> }) => r.rows);
  const [key] = await db
    .raw(`insert into api_keys (team_id, prefix, key_hash, scopes) values (?, 'sk_live_xxxx', ?, '{forms:read}') returning id`, [
      team.teamId,
      randomUUID(),
    ])
    .then((r: { rows: Array<{ id: string }> }) => r.rows);

  await db.migrate.latest(migrationConfig);

  const row = (await db('webhook_subscriptions').where({ id: sub.id }).first())!;
  expect(row).not.toHaveProperty('secret');
  expect(row.secret_enc).not.toContain(secret);
  expect(openWebhookSecret(config(), { id: sub.id, sealed: row.secret_enc, which: 'current' })).toBe(secret);
  expect(openWebhookSecret(config(), { id: sub.id, sealed: row.previous_secret_enc!, which: 'previous' })).toBe(previous);
  expect((await db('api_keys').where({ id: key.id }).first('created_by'))!.created_by).toBe(team.userId);
});
