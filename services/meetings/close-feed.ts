import { randomToken, sha256Hex } from '../../core/crypto';
import type { Executor } from '../../db/knex';

/**
 * A removed member's calendar feeds (services/scheduling/feed.ts makes and rotates them): every
 * feed URL of the user stops working for good, in the removal's transaction (a re-invited user
 * rotates anew). Here, below both accounts and scheduling, so that member removal does not reach up
 * into scheduling.
 */
export async function closeFeed(trx: Executor, input: { teamId: string; userId: string }): Promise<void> {
  await trx('calendar_feeds')
    .insert({ user_id: input.userId, team_id: input.teamId, token_hash: sha256Hex(randomToken(32)), generation: 1 })
    .onConflict('user_id')
    .merge({
      token_hash: sha256Hex(randomToken(32)),
      generation: trx.raw('calendar_feeds.generation + 1'),
      updated_at: trx.fn.now(),
    } as never);
}
