import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes, type SearchAttributePair } from '@temporalio/common';

/** The SDK's key shape (`defineSearchAttributeKey`'s result; the SDK does not export its name). */
export interface SearchAttributeKey<T extends SearchAttributeType> {
  name: string;
  type: T;
}

/**
 * Custom search attributes every workflow may set, so operators can find all workflows of one
 * team, user, contact, sequence, meeting or webhook subscription in one Temporal UI query, e.g.
 * `ContactId = "…"` (docs/operators.md lists ready queries). Registered wherever a namespace is
 * made: the dev server (bin/dev/temporal.ts), the test helpers, the bench and docker-compose.yml
 * (test/operators/search-attributes.test.ts checks that list against this one).
 *
 * SQL visibility (the dev server's SQLite, and PostgreSQL/MySQL) holds at most 10 Keyword, 3
 * KeywordList and 3 Datetime custom attributes per namespace: the Keyword slots are full, so
 * single values that need no prefix match are KeywordList (`WebhookHost = "x"` matches a list
 * holding x). A calendar connection is found by its workflow id, `calendar-sync-<connection_id>`.
 */
export const SEARCH_ATTRIBUTES = {
  TeamId: 'Keyword',
  ContactId: 'Keyword',
  /**
   * The contact's email, keyed: the first 32 hex digits of HMAC-SHA256(app secret
   * `temporal_email_key`, lower-cased trimmed address). No address in the visibility store;
   * `npm run cli -- temporal email-key ada@example.com` prints the query.
   */
  ContactEmailKey: 'Keyword',
  SequenceId: 'Keyword',
  EnrollmentStatus: 'Keyword',
  MeetingId: 'Keyword',
  /** When the meeting starts (booking workflows): `MeetingStart BETWEEN "…" AND "…"`. */
  MeetingStart: 'Datetime',
  /** `pending_confirmation` or `scheduled`: set at start, upserted by the booking workflow as it changes. */
  MeetingStatus: 'KeywordList',
  SubscriptionId: 'Keyword',
  /** The host of a webhook endpoint (`hooks.example.com`), lower case, without port. */
  WebhookHost: 'KeywordList',
  EventType: 'Keyword',
  AppId: 'Keyword',
  /** A team member's workflows (calendar sync: `UserId = "…"`). */
  UserId: 'Keyword',
  /** A calendar connection's last sync: `ok` or `error` (upserted by the sync workflow on change). */
  ConnectionStatus: 'KeywordList',
} as const;

export type SearchAttributeName = keyof typeof SEARCH_ATTRIBUTES;

/** The SDK's type of each attribute ('Keyword' → KEYWORD, 'Datetime' → DATETIME). */
const SDK_TYPE = {
  Keyword: SearchAttributeType.KEYWORD,
  KeywordList: SearchAttributeType.KEYWORD_LIST,
  Datetime: SearchAttributeType.DATETIME,
} as const;
type AttributeType = keyof typeof SDK_TYPE;
type SdkType<N extends SearchAttributeName> = (typeof SDK_TYPE)[(typeof SEARCH_ATTRIBUTES)[N]];

/** `[{name, type}]` in the SDK's terms, for `TestWorkflowEnvironment.createLocal({server: {searchAttributes}})`. */
export function searchAttributeKeys(): Array<SearchAttributeKey<(typeof SDK_TYPE)[AttributeType]>> {
  return (Object.keys(SEARCH_ATTRIBUTES) as SearchAttributeName[]).map((name) => SA[name]);
}

export const SA = Object.fromEntries(
  (Object.entries(SEARCH_ATTRIBUTES) as Array<[SearchAttributeName, AttributeType]>).map(([name, type]) => [
    name,
    defineSearchAttributeKey(name, SDK_TYPE[type]),
  ]),
) as { [K in SearchAttributeName]: SearchAttributeKey<SdkType<K>> };

/**
 * `{TeamId: 'x', MeetingStart: '2026-12-03T14:00:00.000Z'}` → typed search attributes for a
 * workflow start (a Datetime travels through the outbox as its ISO string, a KeywordList as its
 * one value).
 */
export function toTypedSearchAttributes(values: Partial<Record<SearchAttributeName, string>>): TypedSearchAttributes {
  const pairs: SearchAttributePair[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || !(name in SA)) continue;
    const key = SA[name as SearchAttributeName];
    const typed =
      key.type === SearchAttributeType.DATETIME ? new Date(value) : key.type === SearchAttributeType.KEYWORD_LIST ? [value] : value;
    pairs.push({ key, value: typed } as SearchAttributePair);
  }
  return new TypedSearchAttributes(pairs);
}
