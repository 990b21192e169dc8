import type { Config } from '../../core/config';
import type { ServiceDeps } from '../deps';

/** How many teams have SMS steps in a sequence that may still send (not archived; live steps). */
export async function teamsWithSmsSteps(deps: Pick<ServiceDeps, 'db'>): Promise<number> {
  const { db } = deps;
  // The worker may start before the API has migrated a new database: no table, no SMS steps.
  const table = await db.raw(`SELECT to_regclass('sequence_steps') AS t`);
  if (!table.rows[0]?.t) return 0;
  const [row] = await db('sequence_steps as st')
    .join('sequences as s', 's.id', 'st.sequence_id')
    .where('st.channel', 'sms')
    .whereNull('st.deleted_at')
    .whereNot('s.status', 'archived')
    .countDistinct({ n: 's.team_id' });
  return Number(row?.n ?? 0);
}

/**
 * Production never pretends to send SMS: with NODE_ENV=production, when any team has SMS steps in
 * a sequence that is not archived and TWILIO_ACCOUNT_SID or TWILIO_AUTH_TOKEN is unset, the API
 * and the worker refuse to start (bin/api.ts after its migrations, bin/worker.ts before it
 * connects to Temporal). Returns the problem, naming the variables, or null.
 */
export async function productionSmsProblem(
  deps: Pick<ServiceDeps, 'db'> & { config: Pick<Config, 'NODE_ENV' | 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN'> },
): Promise<string | null> {
  const { config } = deps;
  if (config.NODE_ENV !== 'production') return null;
  const missing = (['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const).filter((k) => !config[k]);
  if (missing.length === 0) return null;
  const teams = await teamsWithSmsSteps(deps);
  if (teams === 0) return null;
  return (
    `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set: with NODE_ENV=production SMS must go to Twilio, ` +
    `not to files, and ${teams} team${teams > 1 ? 's have' : ' has'} SMS steps in sequences (archive them, or set the Twilio credentials)`
  );
}
