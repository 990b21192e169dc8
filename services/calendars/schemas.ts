import { z } from 'zod';
import { zText, zUuid, zVariants } from '../../core/validate';

/** Request bodies of /api/v1/calendar-connections (service input contracts; re-exported by the route's schema.ts). */

const name = zText(200).meta({ description: 'Defaults to the server or feed host', example: 'Work calendar' });
const userId = zUuid.meta({
  description: "Whose calendar this is: an owner may connect one for another member; default the caller's user",
});

export const caldavCreateBody = z
  .strictObject({
    kind: z.literal('caldav'),
    name: name.optional(),
    server_url: z
      .string()
      .trim()
      .min(1)
      .max(2048)
      .meta({ description: 'The CalDAV server (discovery finds the calendars: RFC 6764)', example: 'https://caldav.fastmail.com' }),
    username: z.string().min(1).max(320).meta({ example: 'alice@example.com' }),
    password: z
      .string()
      .min(1)
      .max(1024)
      .meta({ description: 'An app password; stored encrypted, never returned', example: 'abcd-efgh-ijkl-mnop' }),
    user_id: userId.optional(),
  })
  .meta({ id: 'CalendarConnectionCreateCaldav' });

export const feedCreateBody = z
  .strictObject({
    kind: z.literal('ics_feed'),
    name: name.optional(),
    url: z.string().trim().min(1).max(2048).meta({
      description: 'A secret iCalendar address (https or webcal); stored encrypted, only its host is shown',
      example: 'https://calendar.google.com/calendar/ical/alice%40example.com/private-0123456789abcdef/basic.ics',
    }),
    user_id: userId.optional(),
  })
  .meta({ id: 'CalendarConnectionCreateFeed' });

export const createConnectionBody = zVariants(
  caldavCreateBody,
  feedCreateBody,
  (v) => (v as { kind?: unknown }).kind === 'ics_feed',
  'CalendarConnectionCreate',
);
export type CreateConnectionInput = z.infer<typeof createConnectionBody>;

export const patchConnectionBody = z.strictObject({
  name: name.optional(),
  calendars: z
    .array(z.strictObject({ id: zUuid, check_conflicts: z.boolean() }))
    .max(200)
    .optional()
    .meta({ description: 'Per calendar of this connection: whether its events block availability' }),
  booking_calendar_id: zUuid
    .nullable()
    .optional()
    .meta({ description: "The one calendar (of this connection) that receives the user's bookings; null: none of this connection's" }),
});
export type PatchConnectionInput = z.infer<typeof patchConnectionBody>;
