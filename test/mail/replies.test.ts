import { Webhook } from 'standardwebhooks';
import { eventually } from '../helpers/smtp';
import { alwaysAvailable, bookHoursAhead } from '../scheduling/helpers';
import { useWorld } from '../sequences/support/world';
import { startReceiver } from '../webhooks/receiver';
import { useInboundListener } from './inbound-support';
import { BOUNCES, ORIGINAL_ID, TOKEN } from './corpus';

/**
 * Replies to mail that is not a sequence step: a booking confirmation goes out over real SMTP with
 * its own Message-ID, VERP return path and Reply-To token; a person's reply, sent over real SMTP to
 * our inbound listener, lands on the contact's timeline and is delivered as `email.replied` to a
 * local webhook receiver.
 */
const w = useWorld({
  appEnv: { MAIL_BOUNCE_DOMAIN: 'bounces.test', MAIL_REPLY_DOMAIN: 'reply.test', ALLOW_LOOPBACK_WEBHOOK_URLS: 'true' },
});
const deliver = useInboundListener(w);
let rx: Awaited<ReturnType<typeof startReceiver>>;
let secret = '';
beforeAll(async () => {
  rx = await startReceiver();
  await alwaysAvailable(w.tdb.db, w.team.userId);
  const hook = await w.api.post('/api/v1/webhooks', { url: rx.url, events: ['email.replied'] });
  expect(hook.status).toBe(201);
  secret = hook.body.data.secret;
});
afterAll(async () => rx?.close());

let hours = 48;
/** Book through the public endpoint; wait for the attendee's confirmation to reach the SMTP server. */
async function booked(attendee: string) {
  const { res } = await bookHoursAhead(w.app.baseUrl, w.team, { hoursAhead: (hours += 2), attendeeEmail: attendee });
  expect(res.status).toBe(201);
  const meetingId = res.body.meeting.id as string;
  const mail = await eventually(
    () => w.smtp.messages.find((m) => m.to === attendee && m.parsed.headers.get('x-meeting-email') === 'confirmation'),
    'the confirmation email',
  );
  // The server has the message before our client has its answer and records accepted_at: wait for the row to say so.
  const row = await eventually(
    () => w.tdb.db('outbound_emails').where({ meeting_id: meetingId, recipient: attendee }).whereNotNull('accepted_at').first(),
    'the outbound_emails row marked accepted',
    10_000,
  ).catch(async () => w.tdb.db('outbound_emails').where({ meeting_id: meetingId, recipient: attendee }).first());
  const meeting = await w.tdb.db('meetings').where({ id: meetingId }).first();
  return { meetingId, mail, row, contactId: meeting!.contact_id as string };
}

async function processed(inboundCount: number) {
  await eventually(async () => {
    const [{ n }] = await w.tdb.db('inbound_emails').whereNotNull('processed_at').count({ n: '*' });
    return Number(n) >= inboundCount;
  }, 'the inbound email to be processed');
}

let inbound = 0;

test('a booking confirmation carries its own Message-ID, VERP return path and Reply-To token', async () => {
  const attendee = `ada-${Date.now()}@example.com`;
  const { mail, row, contactId, meetingId } = await booked(attendee);
  expect(row).toMatchObject({ kind: 'meeting.confirmation', contact_id: contactId, team_id: w.team.teamId, accepted_at: expect.any(Date) });
  expect(row!.token).toMatch(/^[0-9a-f]{32}$/);
  expect(mail.parsed.messageId).toBe(row!.message_id);
  expect(row!.message_id).toMatch(/^<mail\.[0-9a-f-]{36}@reply\.test>$/);
  expect(mail.from).toBe(`bounce+${row!.token}@bounces.test`);
  expect(mail.parsed.replyTo?.value?.[0].address).toBe(`reply+${row!.token}@reply.test`);
  // The host's copy is tracked too (no contact: the host is a user).
  const host = await w.tdb.db('outbound_emails').where({ meeting_id: meetingId }).whereNot({ recipient: attendee }).first();
  expect(host).toMatchObject({ kind: 'meeting.confirmation', contact_id: null });
});

test('a human reply In-Reply-To a booking confirmation: on the timeline, and email.replied to the webhook', async () => {
  const attendee = `grace-${Date.now()}@example.com`;
  const { mail, row, contactId, meetingId } = await booked(attendee);
  const before = rx.received.length;
  const raw = [
    `From: Grace <${attendee}>`,
    'To: Bookings <bookings@reply.test>',
    `Subject: Re: ${mail.parsed.subject}`,
    `Message-ID: <reply-${Date.now()}@mail.example.com>`,
    `In-Reply-To: ${mail.parsed.messageId}`,
    `References: ${mail.parsed.messageId}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Could we make it 30 minutes later? Thanks, Grace',
    '',
  ].join('\r\n');
  // Matched by In-Reply-To alone: the envelope recipient carries no token.
  await deliver(raw, { from: attendee, to: ['bookings@reply.test'] });
  await processed(++inbound);
  const stored = await w.tdb.db('inbound_emails').where({ outbound_email_id: row!.id }).first();
  expect(stored).toMatchObject({ kind: 'reply', send_id: null });
  expect((await w.tdb.db('outbound_emails').where({ id: row!.id }).first())!.replied_at).toBeInstanceOf(Date);

  const detail = await w.api.get(`/api/v1/contacts/${contactId}`);
  expect(detail.status).toBe(200);
  expect(detail.body.data.timeline).toEqual([
    {
      id: expect.any(String),
      type: 'email.replied',
      occurred_at: expect.any(String),
      email: {
        from: attendee,
        subject: `Re: ${mail.parsed.subject}`,
        excerpt: expect.stringContaining('30 minutes later'),
        message_id: expect.stringMatching(/^<reply-\d+@mail\.example\.com>$/),
        in_reply_to: {
          type: 'meeting',
          message_id: row!.message_id,
          sequence_id: null,
          enrollment_id: null,
          step_id: null,
          meeting_id: meetingId,
          email_kind: 'meeting.confirmation',
        },
      },
    },
  ]);

  await eventually(() => rx.received.length > before, 'the email.replied webhook delivery', 30_000);
  const got = rx.received[before];
  expect(got.headers['x-webhook-event']).toBe('email.replied');
  // Signed like every delivery (Standard Webhooks headers).
  const body = new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
  expect(body).toMatchObject({
    event: 'email.replied',
    data: {
      id: stored!.id,
      contact_id: contactId,
      from: attendee,
      subject: `Re: ${mail.parsed.subject}`,
      text: expect.stringContaining('30 minutes later'),
      in_reply_to: { type: 'meeting', meeting_id: meetingId, message_id: row!.message_id, email_kind: 'meeting.confirmation' },
    },
  });
});

test('a reply to the Reply-To token address from another address is matched by token; a DSN to the VERP address bounces it', async () => {
  const attendee = `alan-${Date.now()}@example.com`;
  const { row, contactId } = await booked(attendee);
  const raw = `From: Assistant <assistant@example.org>\r\nTo: reply+${row!.token}@reply.test\r\nSubject: Re: your booking\r\nContent-Type: text/plain\r\n\r\nAlan asked me to confirm.\r\n`;
  await deliver(raw, { from: 'assistant@example.org', to: [`reply+${row!.token}@reply.test`] });
  await processed(++inbound);
  const timeline = (await w.api.get(`/api/v1/contacts/${contactId}`)).body.data.timeline;
  expect(timeline).toHaveLength(1);
  expect(timeline[0].email).toMatchObject({ from: 'assistant@example.org', in_reply_to: { type: 'meeting', message_id: row!.message_id } });

  const dsn = BOUNCES[0].raw.replaceAll(TOKEN, row!.token).replaceAll(ORIGINAL_ID, row!.message_id);
  await deliver(dsn, { from: '', to: [`bounce+${row!.token}@bounces.test`] });
  await processed(++inbound);
  expect(await w.tdb.db('outbound_emails').where({ id: row!.id }).first()).toMatchObject({
    bounce_type: 'hard',
    bounced_at: expect.any(Date),
  });
  expect((await w.tdb.db('contacts').where({ id: contactId }).first())!.email_undeliverable_at).toBeInstanceOf(Date);
});
