import type { ServiceDeps } from '../deps';
import { getForm } from './forms';

interface Bucket {
  views: number;
  starts: number;
  partial: number;
  completed: number;
}

const ratio = (a: number, b: number) => (b === 0 ? 0 : Math.round((a / b) * 10_000) / 10_000);

export interface FormAnalyticsInput {
  teamId: string;
  formId: string;
  since?: string;
  until?: string;
}

/**
 * Views (public page served), starts (every submission, partial or completed), partial and
 * completed counts, completion rate (completed / starts) and conversion rate (completed / views),
 * overall and by utm_source and device_type, within an optional [since, until) window.
 */
export async function formAnalytics(deps: Pick<ServiceDeps, 'db'>, input: FormAnalyticsInput) {
  const { db } = deps;
  const { teamId, formId, ...window } = input;
  await getForm(deps, { teamId, id: formId });
  const subs = db('submissions').where({ form_id: formId });
  const views = db('form_views').where({ form_id: formId });
  if (window.since) {
    subs.where('submitted_at', '>=', window.since);
    views.where('viewed_at', '>=', window.since);
  }
  if (window.until) {
    subs.where('submitted_at', '<', window.until);
    views.where('viewed_at', '<', window.until);
  }
  const grouped = (key: string) =>
    subs
      .clone()
      .select<{ key: string | null; partial: number; completed: number }[]>(
        db.raw(`metadata->>'${key}' AS key`),
        db.raw(`count(*) FILTER (WHERE status = 'partial')::int AS partial`),
        db.raw(`count(*) FILTER (WHERE status = 'completed')::int AS completed`),
      )
      .groupByRaw('1');
  const viewsBy = (col: string) =>
    views.clone().select<{ key: string | null; views: number }[]>({ key: col }, db.raw('count(*)::int AS views')).groupBy(col);
  const [subsUtm, subsDevice, viewsUtm, viewsDevice] = await Promise.all([
    grouped('utm_source'),
    grouped('device_type'),
    viewsBy('utm_source'),
    viewsBy('device_type'),
  ]);

  const combine = (
    s: Array<{ key: string | null; partial: number; completed: number }>,
    v: Array<{ key: string | null; views: number }>,
  ) => {
    const m = new Map<string | null, Bucket>();
    const at = (k: string | null) => m.get(k) ?? (m.set(k, { views: 0, starts: 0, partial: 0, completed: 0 }), m.get(k)!);
    for (const r of s) Object.assign(at(r.key), { partial: r.partial, completed: r.completed, starts: r.partial + r.completed });
    for (const r of v) at(r.key).views = r.views;
    return [...m.entries()].sort((a, b) => b[1].starts - a[1].starts || b[1].views - a[1].views).map(([key, b]) => ({ key, ...b }));
  };
  const byUtm = combine(subsUtm, viewsUtm);
  const total = byUtm.reduce(
    (t, b) => ({
      views: t.views + b.views,
      starts: t.starts + b.starts,
      partial: t.partial + b.partial,
      completed: t.completed + b.completed,
    }),
    {
      views: 0,
      starts: 0,
      partial: 0,
      completed: 0,
    },
  );
  return {
    form_id: formId,
    since: window.since ?? null,
    until: window.until ?? null,
    ...total,
    completion_rate: ratio(total.completed, total.starts),
    conversion_rate: ratio(total.completed, total.views),
    by_utm_source: byUtm.map(({ key, ...b }) => ({ utm_source: key, ...b })),
    by_device_type: combine(subsDevice, viewsDevice).map(({ key, ...b }) => ({ device_type: key, ...b })),
  };
}
