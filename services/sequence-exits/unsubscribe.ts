import type { Executor } from '../../db/knex';
import type { Enqueue } from '../../temporal/outbox';
import { exitEnrollments } from './exits';

export type Channel = 'email' | 'sms';
export type UnsubscribeSource = 'api' | 'one_click' | 'sms_stop' | 'complaint' | 'provider';

export interface UnsubscribeContactInput {
  teamId: string;
  contactId: string;
  channels: Channel[];
  source: UnsubscribeSource;
}

/**
 * Unsubscribe one contact from channels in the caller's transaction: the list row, the contact's
 * flag, and an `unsubscribed` exit of every active enrollment whose sequence uses one of them.
 */
export async function unsubscribeContact(trx: Executor, enqueue: Enqueue, input: UnsubscribeContactInput): Promise<void> {
  const { teamId, contactId, channels, source } = input;
  await trx('sequence_unsubscribes')
    .insert(channels.map((channel) => ({ team_id: teamId, contact_id: contactId, channel, source })))
    .onConflict(['team_id', 'contact_id', 'channel'])
    .ignore();
  await trx('contacts')
    .where({ team_id: teamId, id: contactId })
    .update({
      ...(channels.includes('email') ? { unsubscribed_email: true } : {}),
      ...(channels.includes('sms') ? { unsubscribed_sms: true } : {}),
      updated_at: trx.fn.now(),
    });
  await exitEnrollments(trx, enqueue, {
    teamId,
    contactId,
    sequenceWhere: (q) =>
      q.whereExists(function (this: ReturnType<Executor>) {
        this.select(trx.raw('1'))
          .from('sequence_steps')
          .whereRaw('sequence_steps.sequence_id = sequences.id')
          .whereNull('deleted_at')
          .whereIn('channel', channels);
      }),
    reason: 'unsubscribed',
  });
}
