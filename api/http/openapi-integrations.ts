import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { VISITOR_IP_HEADER, VISITOR_USER_AGENT_HEADER } from './server-caller';
import { WEBHOOK_PAYLOADS } from '../../services/meeting-followup/webhook-schemas';
import { zMeetingBookedEvent, zSubmissionRoutedEvent } from '../../services/webhooks/payload-schemas';

/**
 * What integrators meet besides the routes: the document's `webhooks` (OpenAPI 3.1): what we POST to a subscription's URL, signed as
 * docs/webhooks.md says. The routing and the after-the-meeting events are listed with their bodies.
 */
export function registerWebhooks(registry: OpenAPIRegistry): void {
  const events = [
    { name: 'submission.routed', schema: zSubmissionRoutedEvent, summary: 'A completed submission was routed to a target' },
    {
      name: 'meeting.booked',
      schema: zMeetingBookedEvent,
      summary: 'A meeting was booked (source: routing when from a routed submission, else null)',
    },
    ...WEBHOOK_PAYLOADS.map((h) => ({ name: h.event, schema: h.schema, summary: h.summary })),
  ];
  for (const e of events) {
    registry.registerWebhook({
      method: 'post',
      path: e.name,
      operationId: `webhook_${e.name.replace('.', '_')}`,
      summary: e.summary,
      tags: ['webhooks'],
      // We call the subscriber: it authenticates us by the signature headers, not by a credential of ours.
      security: [],
      request: { body: { required: true, content: { 'application/json': { schema: e.schema } } } },
      responses: {
        200: { description: 'Any 2xx answer acknowledges the delivery' },
        410: { description: 'Gone: the subscription is disabled (`endpoint_gone`)' },
      },
    });
  }
}

/** The headers of a public submission or booking sent from a server (docs/getting-started.md "From your server"). */
export const serverCallerHeaders = z.object({
  [VISITOR_IP_HEADER]: z.string().optional().meta({
    description: "With the team's API key: the visitor's IP address, recorded on the submission and limited per visitor",
    example: '198.51.100.7',
  }),
  [VISITOR_USER_AGENT_HEADER]: z
    .string()
    .optional()
    .meta({ description: "With the team's API key: the visitor's User-Agent, recorded on the submission", example: 'Mozilla/5.0' }),
});
