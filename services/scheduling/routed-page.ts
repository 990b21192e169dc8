import type { ServiceDeps } from '../deps';
import { readPrefillToken } from '../routing-token/prefill-token';
import { slotsFor } from './availability';
import { narrowHosts, resolveContext } from './context';

const DAY = 86_400_000;
/** The no-JavaScript booking step lists this many days of free times, at most MAX_SLOTS of them. */
const DAYS = 7;
const MAX_SLOTS = 60;

export interface RoutedPageView {
  token: string;
  eventTypeId: string;
  name: string | null;
  email: string | null;
  /** Free times of the routed hosts (UTC), for the page that works without JavaScript. */
  slots: Array<{ start: string; end: string }>;
}

/**
 * The booking page opened from a routed submission (`/book/<slug>?event_type=…&prefill=…`,
 * docs/forms.md "Routing"): the name and email from the answers and the routed hosts' free times.
 * Null when the token is not valid for an event type of this page (the page then shows as usual).
 */
export async function routedPageView(
  deps: Pick<ServiceDeps, 'db'>,
  input: { token: string; eventTypeIds: string[] },
): Promise<RoutedPageView | null> {
  const routed = await readPrefillToken(deps.db, { token: input.token });
  const eventTypeId = routed?.routing.event_type_id;
  if (!routed || !eventTypeId || !input.eventTypeIds.includes(eventTypeId)) return null;
  const ctx = narrowHosts(await resolveContext(deps.db, { eventTypeId }), routed.routing.host_user_ids);
  const now = Date.now();
  const from = Math.floor(now / DAY) * DAY;
  const slots = await slotsFor(deps, { ctx, from, to: from + DAYS * DAY, now });
  return {
    token: input.token,
    eventTypeId,
    name: routed.prefill.name,
    email: routed.prefill.email,
    slots: slots.slice(0, MAX_SLOTS).map((s) => ({ start: new Date(s.start).toISOString(), end: new Date(s.end).toISOString() })),
  };
}
