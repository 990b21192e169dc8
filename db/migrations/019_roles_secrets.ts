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

  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    t.text('secret_enc');
    t.text('previous_secret_enc');
  });
  const rows = await knex('webhook_subscriptions').select<{ id: string; secret: string; previous_secret: string | null }[]>(
    'id',
    'secret',
    'previous_secret',
  );
  if (rows.length > 0) {
    const box = atRestBox(config());
    for (const r of rows) {
      await knex('webhook_subscriptions')
        .where({ id: r.id })
        .update({
          secret_enc: box.seal(r.secret, rowAad('webhook_subscriptions', r.id)),
          previous_secret_enc: r.previous_secret ? box.seal(r.previous_secret, rowAad('webhook_subscriptions.previous', r.id)) : null,
        });
    }
  }
  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    t.dropColumn('secret');
    t.dropColumn('previous_secret');
  });
  await knex.raw('ALTER TABLE webhook_subscriptions ALTER COLUMN secret_enc SET NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    t.text('secret');
    t.text('previous_secret');
  });
  const rows = await knex('webhook_subscriptions').select<{ id: string; secret_enc: string; previous_secret_enc: string | null }[]>(
    'id',
    'secret_enc',
    'previous_secret_enc',
  );
  if (rows.length > 0) {
    const box = atRestBox(config());
    for (const r of rows) {
      await knex('webhook_subscriptions')
        .where({ id: r.id })
        .update({
          secret: box.open(r.secret_enc, rowAad('webhook_subscriptions', r.id)),
          previous_secret: r.previous_secret_enc ? box.open(r.previous_secret_enc, rowAad('webhook_subscriptions.previous', r.id)) : null,
        } as never);
    }
  }
  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    t.dropColumn('secret_enc');
    t.dropColumn('previous_secret_enc');
  });
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
