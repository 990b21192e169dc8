import type { Executor } from '../../db/knex';
import { BLOCK_REASONS, type BlockReason } from '../../domain/mail-block';

/**
 * The team's count of blocks (docs/sequences.md "Blocks"): messages the receiving server refused
 * for our reputation, authentication, content or a sender policy. Counted once per message, in the
 * transaction that records the bounce.
 */
export async function countBlock(trx: Executor, { teamId, reason }: { teamId: string; reason: BlockReason }): Promise<void> {
  await trx('team_mail_blocks')
    .insert({ team_id: teamId, reason, count: 1, last_at: trx.fn.now() })
    .onConflict(['team_id', 'reason'])
    .merge({ count: trx.raw('team_mail_blocks.count + 1'), last_at: trx.fn.now() });
}

export type MailBlocks = Record<BlockReason, { count: number; last_at: Date | null }>;

/** Every reason's count and last time (0 and null when none), for GET /api/v1/team. */
export async function teamMailBlocks(db: Executor, { teamId }: { teamId: string }): Promise<MailBlocks> {
  const rows = await db('team_mail_blocks').where({ team_id: teamId }).select('reason', 'count', 'last_at');
  const by = new Map(rows.map((r) => [r.reason, r]));
  return Object.fromEntries(
    BLOCK_REASONS.map((reason) => {
      const r = by.get(reason);
      return [reason, { count: Number(r?.count ?? 0), last_at: r?.last_at ?? null }];
    }),
  ) as MailBlocks;
}

/** The bounce_type a send keeps: hard wins over everything, a block over a soft bounce, a soft bounce over nothing. */
export function bounceTypeSql(trx: Executor, type: 'hard' | 'soft' | 'block') {
  if (type === 'hard') return 'hard';
  if (type === 'block') return trx.raw(`CASE WHEN bounce_type = 'hard' THEN 'hard' ELSE 'block' END`);
  return trx.raw(`COALESCE(bounce_type, 'soft')`);
}
