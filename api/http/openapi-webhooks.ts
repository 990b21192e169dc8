import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { zMeetingBookedEvent, zSubmissionRoutedEvent } from '../../services/webhooks/payload-schemas';

/**
 * The document's `webhooks` (OpenAPI 3.1): what we POST to a subscription's URL, signed as
 * docs/webhooks.md says. The routing events are listed with their bodies.
 */
export function registerWebhooks(registry: OpenAPIRegistry): void {
  const events = [
    { name: 'submission.routed', schema: zSubmissionRoutedEvent, summary: 'A completed submission was routed to a target' },
    { name: 'meeting.booked', schema: zMeetingBookedEvent, summary: 'A meeting was booked from a routed submission (source: routing)' },
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
      responses: { 200: { description: 'Any 2xx answer acknowledges the delivery' } },
    });
  }
}
