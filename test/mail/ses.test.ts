import { classifyMail, type MailFacts } from '../../domain/mail-classify';
import { sesNotification } from '../../domain/mail-ses';

/**
 * Amazon SES notifications by mail (domain/mail-ses.ts), built in the shapes AWS documents
 * (https://docs.aws.amazon.com/ses/latest/dg/notification-contents.html). Real ones are in the
 * corpus (test/mail/corpus/sisimai/lhost-amazonses-09…13.eml).
 */
const DOMAINS = { bounce: 'bounces.test', reply: 'reply.test' };
const FOOTER =
  '\n\n--\nIf you wish to stop receiving notifications from this topic, please click or visit the link below to unsubscribe:\nhttps://sns.us-east-1.amazonaws.com/unsubscribe.html?SubscriptionArn=x\n';
const bounce = (bounceType: string, recipient: Record<string, string>) =>
  JSON.stringify({
    notificationType: 'Bounce',
    bounce: { bounceType, bounceSubType: 'General', bouncedRecipients: [{ emailAddress: 'ann@example.com', ...recipient }] },
    mail: { messageId: 'm-1', destination: ['ann@example.com'] },
  }) + FOOTER;

function facts(text: string, from = 'no-reply@sns.amazonaws.com'): MailFacts {
  return {
    headers: { from: `SES <${from}>` },
    recipients: [`reply+0123456789abcdef@${DOMAINS.reply}`],
    mailFrom: 'bounce-id@us-east-1.amazonses.com',
    subject: 'AWS Notification Message',
    from,
    text,
    inReplyTo: [],
    references: [],
    parts: [],
  };
}

test('a bounce: the status and diagnostic decide hard or soft; bounceType only when they say nothing', () => {
  expect(sesNotification(bounce('Permanent', { status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }))).toEqual({
    kind: 'bounce',
    type: 'hard',
    status: '5.1.1',
    diagnostic: '550 5.1.1 user unknown',
    recipient: 'ann@example.com',
    standard: false,
  });
  // A full mailbox answered with 5.2.2 is soft whatever SES calls it.
  expect(sesNotification(bounce('Permanent', { status: '5.2.2', diagnosticCode: 'smtp; 552 5.2.2 mailbox full' }))).toMatchObject({
    type: 'soft',
  });
  expect(sesNotification(bounce('Transient', {}))).toMatchObject({ kind: 'bounce', type: 'soft', status: null });
  expect(sesNotification(bounce('Undetermined', {}))).toMatchObject({ type: 'soft' });
  expect(sesNotification(bounce('Permanent', {}))).toMatchObject({ type: 'hard' });
});

test('a delay is a warning, a complaint a complaint, a delivery nothing to act on', () => {
  const delay = JSON.stringify({
    eventType: 'DeliveryDelay',
    deliveryDelay: { delayType: 'MailboxFull', delayedRecipients: [{ emailAddress: 'bo@example.com', status: '4.2.2' }] },
  });
  expect(sesNotification(delay)).toEqual({ kind: 'warning', status: '4.2.2', recipient: 'bo@example.com' });
  const complaint = JSON.stringify({ notificationType: 'Complaint', complaint: { complainedRecipients: [{ emailAddress: 'a@b.c' }] } });
  expect(sesNotification(complaint)).toEqual({ kind: 'complaint', feedbackType: 'abuse' });
  expect(sesNotification(JSON.stringify({ notificationType: 'Delivery', delivery: {} }))).toMatchObject({ kind: 'unknown' });
});

test('not a notification: other JSON, broken JSON, text; a person sending such JSON is not read as SES', () => {
  expect(sesNotification('{"Type":"SubscriptionConfirmation","Message":"You have chosen to subscribe"}')).toBeNull();
  expect(sesNotification('{"notificationType":"Bounce", "bounce": ')).toBeNull();
  expect(sesNotification('Hello, the notificationType field is {odd}')).toBeNull();
  expect(sesNotification('[{"notificationType":"Bounce"}]')).toBeNull();
  // From a person (not a system sender), the same body is a reply to our mail, never a bounce.
  const person = classifyMail(facts(bounce('Permanent', { status: '5.1.1' }), 'ann@example.com'), DOMAINS);
  expect(person.class.kind).toBe('reply');
  const sns = classifyMail(facts(bounce('Permanent', { status: '5.1.1' })), DOMAINS);
  expect(sns.class).toMatchObject({ kind: 'bounce', type: 'hard', recipient: 'ann@example.com' });
});

test("Sendmail's long-line breaks (`!`, line end, space) are taken out before the JSON is read", () => {
  const body = bounce('Permanent', { status: '5.1.1' });
  const broken = `${body.slice(0, 60)}!\r\n ${body.slice(60)}`;
  expect(sesNotification(broken)).toMatchObject({ kind: 'bounce', status: '5.1.1' });
});
