import type { Executor } from '../../db/knex';
import type { FormField } from '../../domain/form-fields';
import { routingTargets, type Routing } from '../../domain/routing';
import { validationFailed, type ErrorDetail } from '../../core/errors';

const BASE = 'body.settings.routing';

/**
 * Routing rules must name what exists (docs/forms.md "Routing"): fields of the form, event types
 * of the team, hosts on the event type's page, a sequence of the team. Each problem is a detail of
 * one 400. Another team's event type or sequence is reported as unknown, like a missing one.
 */
export async function checkRouting(
  db: Executor,
  { teamId, fields, routing }: { teamId: string; fields: FormField[]; routing: Routing | null | undefined },
): Promise<void> {
  if (!routing) return;
  const issues: ErrorDetail[] = [];
  const names = new Set(fields.map((f) => f.name));
  routing.rules.forEach((r, i) =>
    r.conditions.forEach((c, j) => {
      if (!names.has(c.field)) issues.push({ path: `${BASE}.rules.${i}.conditions.${j}.field`, message: `no field is named "${c.field}"` });
    }),
  );
  const targets = routingTargets(routing);
  const eventTypeIds = [...new Set(targets.flatMap((t) => (t.target.type === 'event_type' ? [t.target.event_type_id] : [])))];
  const eventTypes = eventTypeIds.length
    ? await db('event_types').whereIn('id', eventTypeIds).where({ team_id: teamId }).select('id', 'scheduling_page_id')
    : [];
  const pageOf = new Map(eventTypes.map((e) => [e.id, e.scheduling_page_id]));
  const pageIds = [...new Set(eventTypes.map((e) => e.scheduling_page_id))];
  const hosts = pageIds.length ? await db('scheduling_page_hosts').whereIn('page_id', pageIds).select('page_id', 'user_id') : [];
  for (const { target, path } of targets) {
    if (target.type !== 'event_type') continue;
    const pageId = pageOf.get(target.event_type_id);
    if (!pageId) {
      issues.push({ path: `${BASE}.${path}.event_type_id`, message: 'no event type of this team has this id' });
      continue;
    }
    const onPage = new Set(hosts.filter((h) => h.page_id === pageId).map((h) => h.user_id));
    (target.host_user_ids ?? []).forEach((id, k) => {
      if (!onPage.has(id))
        issues.push({ path: `${BASE}.${path}.host_user_ids.${k}`, message: "is not a host on the event type's scheduling page" });
    });
  }
  if (routing.unbooked) {
    const seq = await db('sequences').where({ id: routing.unbooked.sequence_id, team_id: teamId }).first('id');
    if (!seq) issues.push({ path: `${BASE}.unbooked.sequence_id`, message: 'no sequence of this team has this id' });
  }
  if (issues.length) throw validationFailed(issues, "The form's routing rules are not valid");
}
