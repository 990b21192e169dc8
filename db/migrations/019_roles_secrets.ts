import type { Knex } from 'knex';
import { config } from '../../core/config';
import { atRestBox, rowAad } from '../../core/secret-box';

/**
 * Roles and secrets that hold (docs/accounts.md "Keys act as their creator", docs/decisions.md
 * "Idempotency", docs/webhooks.md "Signing secrets at rest"):
 * - every API key names its creator: a key made before creators were recorded (the CLI's
 *   `keys create`) is given the team's first owner, the only role that could make an all-scope key
 *   outside the dashboard; a key of a team without an active owner stays without one and stops working;
 * - idempotency rows hold a hash of the client's key and a sealed answer (the old rows, which held
 *   answers in the clear, are dropped: they were a 24-hour cache);
 * - webhook signing secrets are sealed (AES-256-GCM, bound to the row) instead of stored as they are.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    UPDATE api_keys k SET created_by = (
      SELECT u.id FROM users u
       WHERE u.team_id = k.team_id AND u.role = 'owner' AND u.removed_at IS NULL
       ORDER BY u.created_at, u.id LIMIT 1)
     WHERE k.created_by IS NULL`);

  await knex.schema.dropTable('idempotency_keys');
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.text('scope').notNullable(); // team and credential
    t.text('key_hash').notNullable(); // HMAC of the client's Idempotency-Key (never the key)
    t.text('request_mac').notNullable(); // HMAC of method, path and body under the derived key
    t.integer('status');
    t.text('body_sealed'); // the answer, sealed under a key derived from the client's key
    t.timestamp('locked_until', { useTz: true }).notNullable(); // the lease of the request in progress
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['scope', 'key_hash']);
    t.index(['created_at']);
  });

  await moveSecrets(knex, { from: ['secret', 'previous_secret'], to: ['secret_enc', 'previous_secret_enc'], seal: true });
  await knex.raw('ALTER TABLE webhook_subscriptions ALTER COLUMN secret_enc SET NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await moveSecrets(knex, { from: ['secret_enc', 'previous_secret_enc'], to: ['secret', 'previous_secret'], seal: false });
  await knex.raw('ALTER TABLE webhook_subscriptions ALTER COLUMN secret SET NOT NULL');
  await knex.schema.dropTable('idempotency_keys');
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.text('scope').notNullable();
    t.text('key').notNullable();
    t.text('method').notNullable();
    t.text('path').notNullable();
    t.text('request_hash').notNullable();
    t.integer('status');
    t.jsonb('body');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['scope', 'key']);
  });
}

/**
 * Move a subscription's current and previous signing secrets from two columns to two new ones,
 * sealing them (up) or opening them (down) under the at-rest key bound to the row, then drop the old columns.
 */
async function moveSecrets(knex: Knex, input: { from: [string, string]; to: [string, string]; seal: boolean }): Promise<void> {
  const { from, to } = input;
  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    for (const c of to) t.text(c);
  });
  const rows: Array<Record<string, string | null>> = await knex('webhook_subscriptions').select('id', ...from);
  if (rows.length > 0) {
    const box = atRestBox(config());
    const aads = ['webhook_subscriptions', 'webhook_subscriptions.previous'];
    for (const r of rows) {
      const id = r.id as string;
      const values = from.map((c, i) => {
        const v = r[c];
        if (v === null) return null;
        return input.seal ? box.seal(v, rowAad(aads[i], id)) : box.open(v, rowAad(aads[i], id));
      });
      await knex('webhook_subscriptions')
        .where({ id })
        .update({ [to[0]]: values[0], [to[1]]: values[1] } as never);
    }
  }
  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    for (const c of from) t.dropColumn(c);
  });
}
