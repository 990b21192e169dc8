import type { Db } from '../../../db/knex';
import { addMember } from '../../../services/team';
import type { TestTeam } from '../../helpers/fixtures';
import { client } from '../../helpers/http';
import { alwaysAvailable, publishedEventType } from '../../scheduling/helpers';
import { testConfig } from '../../helpers/config';

/**
 * A team with a round-robin page of four hosts (the owner and three members, open around the
 * clock) and a published form that routes `region = EMEA` to two of them, `region = US` to a URL
 * and everything else to a message.
 */
export interface RoutingWorld {
  hosts: string[];
  /** The two hosts EMEA answers are routed to. */
  emea: string[];
  eventTypeId: string;
  pageId: string;
  pageSlug: string;
  formId: string;
  formSlug: string;
}

export const FORM_FIELDS = [
  { type: 'text', label: 'Name', name: 'name', required: true },
  { type: 'email', label: 'Email', name: 'email', required: true },
  { type: 'select', label: 'Region', name: 'region', options: ['EMEA', 'US', 'APAC'] },
];

export async function routingWorld(
  db: Db,
  baseUrl: string,
  team: Pick<TestTeam, 'teamId' | 'userId' | 'apiKey'>,
  slug: string,
): Promise<RoutingWorld> {
  const api = client(baseUrl, team.apiKey);
  const hosts = [team.userId];
  for (let i = 0; i < 3; i++)
    hosts.push(
      (
        await addMember(
          { db, config: testConfig() },
          { teamId: team.teamId, values: { email: `${slug}-h${i}@example.com`, role: 'member' } },
        )
      ).id,
    );
  for (const id of hosts) await alwaysAvailable(db, id);
  const {
    eventTypeId,
    pageId,
    slug: pageSlug,
  } = await publishedEventType(
    baseUrl,
    team,
    { title: `Sales ${slug}`, slug: `sales-${slug}`, page_type: 'round_robin', host_user_ids: hosts },
    { title: 'Intro call', start_time_increment: 60 },
  );
  const emea = [hosts[1], hosts[2]];
  const res = await api.post('/api/v1/forms', {
    title: 'Talk to sales',
    slug,
    status: 'published',
    fields: FORM_FIELDS,
    settings: {
      routing: {
        rules: [
          {
            conditions: [{ field: 'region', operator: 'equals', value: 'EMEA' }],
            target: { type: 'event_type', event_type_id: eventTypeId, host_user_ids: emea },
          },
          {
            conditions: [{ field: 'region', operator: 'equals', value: 'US' }],
            target: { type: 'url', url: 'https://us.example.com/welcome' },
          },
        ],
        fallback: { type: 'message', message: 'We will write to you soon.' },
      },
    },
  });
  if (res.status !== 201) throw new Error(`form: ${res.status} ${res.text}`);
  return { hosts, emea, eventTypeId, pageId, pageSlug, formId: res.body.data.id, formSlug: slug };
}
