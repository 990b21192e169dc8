import { holds, type Condition, type FieldValue } from './conditions';

/**
 * Routing a completed submission (form `settings.routing`, docs/forms.md "Routing"): ordered rules
 * over the answers, in the one condition vocabulary of domain/conditions.ts (the form logic's and
 * qualification's), each leading to a target; the first rule that holds wins, else the fallback.
 * Pure.
 */

/** Where a routed submission goes: a booking step, a URL, or a message. */
export type RoutingTarget =
  | { type: 'event_type'; event_type_id: string; /** A subset of the page's hosts; absent = all of them. */ host_user_ids?: string[] }
  | { type: 'url'; url: string }
  | { type: 'message'; message: string };

export interface RoutingRule {
  /** `all` (default): every condition must hold; `any`: one is enough. */
  match?: 'all' | 'any';
  conditions: Condition[];
  target: RoutingTarget;
}

/** A visitor who does not book within `after_hours` is enrolled in `sequence_id`. */
export interface UnbookedFollowUp {
  after_hours: number;
  sequence_id: string;
}

export interface Routing {
  rules: RoutingRule[];
  fallback?: RoutingTarget | null;
  unbooked?: UnbookedFollowUp | null;
}

/** What a submission was routed to: the target and the rule that chose it (null: the fallback). */
export interface RoutedTo {
  target: RoutingTarget;
  rule: number | null;
}

function ruleHolds(rule: RoutingRule, values: Record<string, FieldValue>): boolean {
  const results = rule.conditions.map((c) => holds(c, values[c.field]));
  if (results.length === 0) return true;
  return (rule.match ?? 'all') === 'any' ? results.some(Boolean) : results.every(Boolean);
}

/** The first rule that holds for the answers, else the fallback; null when neither applies. */
export function routeAnswers(routing: Routing | null | undefined, values: Record<string, FieldValue>): RoutedTo | null {
  if (!routing) return null;
  const index = routing.rules.findIndex((r) => ruleHolds(r, values));
  if (index >= 0) return { target: routing.rules[index].target, rule: index };
  return routing.fallback ? { target: routing.fallback, rule: null } : null;
}

/** Every target of the routing (rules, then the fallback) with the path of its settings, for the checks on save. */
export function routingTargets(routing: Routing): Array<{ target: RoutingTarget; path: string }> {
  const out = routing.rules.map((r, i) => ({ target: r.target, path: `rules.${i}.target` }));
  if (routing.fallback) out.push({ target: routing.fallback, path: 'fallback' });
  return out;
}

/** What a submission records of its routing (`submissions.routing`), as the API shows it. */
export interface RoutingRecord {
  target: RoutingTarget['type'];
  /** The rule that chose the target; null for the fallback. */
  rule: number | null;
  event_type_id: string | null;
  /** The hosts offered: the target's subset, else every host of the page at the time of routing. */
  host_user_ids: string[] | null;
  /** The event type's booking page (without the prefill token). */
  booking_url: string | null;
  url: string | null;
  message: string | null;
}
