import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes, type SearchAttributePair } from '@temporalio/common';

/**
 * Custom search attributes every workflow may set, so operators can find all workflows of one
 * team, user, contact, sequence, meeting or webhook subscription in one Temporal UI query, e.g.
 * `ContactId = "…"`. The dev server registers these at start; so do the test helpers.
 */
export const SEARCH_ATTRIBUTES = {
  TeamId: 'Keyword',
  ContactId: 'Keyword',
  SequenceId: 'Keyword',
  EnrollmentStatus: 'Keyword',
  MeetingId: 'Keyword',
  SubscriptionId: 'Keyword',
  EventType: 'Keyword',
  AppId: 'Keyword',
  /** A team member's workflows (calendar sync: `UserId = "…"`; the connection is in the workflow id). */
  UserId: 'Keyword',
} as const;

export type SearchAttributeName = keyof typeof SEARCH_ATTRIBUTES;

const keyword = (name: string) => defineSearchAttributeKey(name, SearchAttributeType.KEYWORD);

export const SA = Object.fromEntries(Object.keys(SEARCH_ATTRIBUTES).map((name) => [name, keyword(name)])) as {
  [K in SearchAttributeName]: ReturnType<typeof keyword>;
};

/** `{TeamId: 'x'}` → typed search attributes for a workflow start. */
export function toTypedSearchAttributes(values: Partial<Record<SearchAttributeName, string>>): TypedSearchAttributes {
  const pairs: SearchAttributePair[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && name in SA) pairs.push({ key: SA[name as SearchAttributeName], value } as SearchAttributePair);
  }
  return new TypedSearchAttributes(pairs);
}
