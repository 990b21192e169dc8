import Koa from 'koa';
import { createDb } from '../db/knex';

/**
 * A bare Koa handler on a pool of the API's size, in its own process, for baselines.
 * BASELINE=select1 (default): one `select 1`. BASELINE=user: reads the same user row that
 * GET /api/v1/me returns (USER_ID, TEAM_ID), so the ratio isolates the framework's own cost.
 */
const db = createDb(process.env.DATABASE_URL as string, Number(process.env.DATABASE_POOL_MAX ?? 10));
const mode = process.env.BASELINE ?? 'select1';
const app = new Koa();
app.use(async (ctx) => {
  if (mode === 'user') {
    const r = await db.raw(
      'select id, team_id, email, name, role, timezone, created_at, updated_at from users where id = ? and team_id = ?',
      [process.env.USER_ID as string, process.env.TEAM_ID as string],
    );
    ctx.body = { data: r.rows[0] };
  } else {
    await db.raw('select 1');
    ctx.body = { ok: true };
  }
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => process.exit(0));
