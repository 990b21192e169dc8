import { findSequence, liveSteps } from './authoring';
import type { ServiceDeps } from '../deps';

/**
 * Counts per sequence (enrollments by status) and per live step (from the sends: SMTP
 * acceptance or provider delivery report, open pixel (people and machines apart), click redirect
 * (people and link scanners apart), bounce and failure).
 */
export async function sequenceAnalytics(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  { teamId, id: sequenceId }: { teamId: string; id: string },
) {
  const { db, config } = deps;
  const bounceWindowHours = config.MAIL_BOUNCE_WINDOW;
  await findSequence(db, { teamId, id: sequenceId });
  const [byStatus, steps, sends] = await Promise.all([
    db('sequence_enrollments').where({ sequence_id: sequenceId }).groupBy('status').select('status').count({ n: '*' }),
    liveSteps(db, sequenceId),
    db('sequence_sends')
      .where({ sequence_id: sequenceId })
      .groupBy('step_id')
      .select('step_id')
      .select(
        db.raw(`count(*) FILTER (WHERE status IN ('sent', 'unknown')) AS sent`),
        db.raw('count(accepted_at) AS accepted'),
        // Delivered: a provider's or Twilio's delivery report, or accepted with no bounce for the
        // whole bounce window (MAIL_BOUNCE_WINDOW), decided at read time.
        db.raw(
          `count(*) FILTER (WHERE bounced_at IS NULL AND (delivered_at IS NOT NULL
             OR accepted_at <= now() - make_interval(hours => ?))) AS delivered`,
          [bounceWindowHours],
        ),
        // People apart from machines (domain/engagement.ts): a send opened by Apple's proxy and then
        // by its reader counts in both.
        db.raw('count(opened_at) AS opened'),
        db.raw('count(machine_opened_at) AS machine_opened'),
        db.raw('count(clicked_at) AS clicked'),
        db.raw('count(scanner_clicked_at) AS scanner_clicked'),
        db.raw('count(bounced_at) AS bounced'),
        db.raw(`count(*) FILTER (WHERE bounce_type = 'hard') AS hard_bounced`),
        db.raw(
          `count(*) FILTER (WHERE bounced_at IS NOT NULL AND bounce_type IS DISTINCT FROM 'hard' AND bounce_type IS DISTINCT FROM 'block') AS soft_bounced`,
        ),
        // Refused for our reputation, authentication, content or a policy: the address is fine (docs/sequences.md "Blocks").
        db.raw(`count(*) FILTER (WHERE bounce_type = 'block') AS blocked`),
        db.raw('count(complained_at) AS complained'),
        db.raw('count(replied_at) AS replied'),
        db.raw('count(auto_replied_at) AS auto_replied'),
        db.raw('count(unsubscribed_at) AS unsubscribed'),
        db.raw(`count(*) FILTER (WHERE status = 'failed' OR failed_at IS NOT NULL) AS failed`),
      ),
  ]);
  const n = (s: string) => Number((byStatus as Array<{ status: string; n: number }>).find((r) => r.status === s)?.n ?? 0);
  const bySend = new Map((sends as Array<Record<string, unknown>>).map((r) => [r.step_id as string, r]));
  const total = (byStatus as Array<{ n: number }>).reduce((a, r) => a + Number(r.n), 0);
  return {
    enrolled: total - n('skipped'),
    active: n('active'),
    completed: n('completed'),
    exited: n('exited'),
    skipped: n('skipped'),
    steps: steps.map((s) => {
      const r = bySend.get(s.id) ?? {};
      const c = (k: string) => Number(r[k] ?? 0);
      return {
        step_id: s.id,
        position: s.position,
        channel: s.channel,
        sent: c('sent'),
        accepted: c('accepted'),
        delivered: c('delivered'),
        opened: c('opened'),
        machine_opened: c('machine_opened'),
        clicked: c('clicked'),
        scanner_clicked: c('scanner_clicked'),
        bounced: c('bounced'),
        hard_bounced: c('hard_bounced'),
        soft_bounced: c('soft_bounced'),
        blocked: c('blocked'),
        complained: c('complained'),
        replied: c('replied'),
        auto_replied: c('auto_replied'),
        unsubscribed: c('unsubscribed'),
        failed: c('failed'),
      };
    }),
  };
}
