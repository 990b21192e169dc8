import Koa from 'koa';
import { createDb } from '../db/knex';

/**
 * A bare Koa handler on a pool of the API's size, in its own process, for baselines.
 * BASELINE=select1 (default): one `select 1`. BASELINE=user: reads the same user row that
 * GET /api/v1/me returns (USER_ID, TEAM_ID), so the ratio isolates the framework's own cost.
 * BASELINE=submission: the public submission's writes without the product around them: the JSON
 * body read, then in one transaction the contact upsert, the submission insert and its
 * `submission.created` event (TEAM_ID, FORM_ID); answers 201 with the id.
 */
const db = createDb(process.env.DATABASE_URL as string, Number(process.env.DATABASE_POOL_MAX ?? 10));
const mode = process.env.BASELINE ?? 'select1';
const teamId = process.env.TEAM_ID as string;
const formId = process.env.FORM_ID as string;

async function readJson(req: NodeJS.ReadableStream): Promise<{ fields?: Record<string, string> }> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function submission(ctx: Koa.Context): Promise<void> {
  const body = await readJson(ctx.req);
  const fields = body.fields ?? {};
  const id = await db.transaction(async (trx) => {
    const c = await trx.raw(
      `INSERT INTO contacts (team_id, email, first_name, custom_fields) VALUES (?, ?, ?, '{}'::jsonb)
       ON CONFLICT (team_id, email) WHERE deleted_at IS NULL AND email IS NOT NULL
       DO UPDATE SET first_name = COALESCE(EXCLUDED.first_name, contacts.first_name), updated_at = now()
       RETURNING id`,
      [teamId, String(fields.email ?? '').toLowerCase(), fields.name ?? null],
    );
    const metadata = {
      utm_source: ctx.query.utm_source ?? null,
      tracking_id: ctx.query.tracking_id ?? null,
      user_agent: ctx.get('user-agent'),
    };
    const s = await trx.raw(
      `INSERT INTO submissions (team_id, form_id, status, qualified, fields, metadata, contact_id)
       VALUES (?, ?, 'completed', false, ?::jsonb, ?::jsonb, ?) RETURNING id, submitted_at`,
      [teamId, formId, JSON.stringify(fields), JSON.stringify(metadata), c.rows[0].id],
    );
    const sub = s.rows[0] as { id: string; submitted_at: Date };
    await trx.raw(`INSERT INTO events (team_id, type, form_id, payload) VALUES (?, 'submission.created', ?, ?::jsonb)`, [
      teamId,
      formId,
      JSON.stringify({ event: 'submission.created', data: { form_id: formId, submission_id: sub.id, submission_data: fields, metadata } }),
    ]);
    return sub.id;
  });
  ctx.status = 201;
  ctx.body = { data: { id, status: 'completed' } };
}

const app = new Koa();
app.use(async (ctx) => {
  if (mode === 'submission') return submission(ctx);
  if (mode === 'user') {
    const r = await db.raw(
      'select id, team_id, email, name, role, timezone, created_at, updated_at from users where id = ? and team_id = ?',
      [process.env.USER_ID as string, teamId],
    );
    ctx.body = { data: r.rows[0] };
  } else {
    await db.raw('select 1');
    ctx.body = { ok: true };
  }
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => process.exit(0));
