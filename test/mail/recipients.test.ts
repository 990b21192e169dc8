import { parseMailFacts } from '../../core/mail-facts';
import { classifyMail } from '../../domain/mail-classify';
import { cleanRecipient } from '../../domain/mail-recipient';
import { DOMAINS, ORIGINAL_ID, TOKEN } from './corpus';

/**
 * Recipients in the free-text shapes of issue 42 item 7: an address named only in a notice's
 * text, `rfc822;` repeated in a recipient field, the returned message's To: as the last resort;
 * and Exim's "Unrouteable mail domain" with no status, which is hard.
 */
const BOUNCE_TO = `bounce+${TOKEN}@${DOMAINS.bounce}`;
const classify = async (raw: string) =>
  classifyMail(await parseMailFacts(raw.replace(/\n/g, '\r\n'), { mailFrom: '', recipients: [BOUNCE_TO] }), DOMAINS).class;

const returned = `From: Sales <sales@example.com>
To: Ada <ada@example.org>
Subject: Hello Ada
Message-ID: ${ORIGINAL_ID}`;

function dsn(perRecipient: string, human = 'Your message could not be delivered.') {
  return `From: MAILER-DAEMON@mx.example.net
To: ${BOUNCE_TO}
Subject: Undelivered Mail Returned to Sender
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B"

--B
Content-Type: text/plain

${human}

--B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.net

${perRecipient}

--B
Content-Type: text/rfc822-headers

${returned}

--B--
`;
}

test.each([
  ['rfc822; rfc822;ada@example.org', 'ada@example.org'],
  ['rfc822;rfc822; rfc822;ada@example.org', 'ada@example.org'],
  ['RFC822; <ada@example.org>', 'ada@example.org'],
  ['utf-8; rfc822;ada@example.org', 'ada@example.org'],
  ['ada@example.org', 'ada@example.org'],
  ['x400; /C=US/A= /P=EXAMPLE/S=Ada/', '/C=US/A= /P=EXAMPLE/S=Ada/'],
])('a recipient field %s is the address %s', (field, address) => {
  expect(cleanRecipient(field)).toBe(address);
});

test('Original-Recipient with rfc822; repeated: the address without any of them', async () => {
  const c = await classify(
    dsn(
      'Original-Recipient: rfc822; rfc822;ada@example.org\nFinal-Recipient: rfc822; rfc822; rfc822;ada@mx.example.org\nAction: failed\nStatus: 5.1.1',
    ),
  );
  expect(c).toMatchObject({ kind: 'bounce', type: 'hard', recipient: 'ada@example.org' });
});

test('a DSN without recipient fields: the address its notice names', async () => {
  const c = await classify(
    dsn('Action: failed\nStatus: 5.1.1', 'Delivery to the following recipient failed permanently:\n\n     bob@example.org'),
  );
  expect(c).toMatchObject({ kind: 'bounce', recipient: 'bob@example.org' });
});

test('a free-text notice naming the address only in its text', async () => {
  const c = await classify(`From: Mail Delivery System <MAILER-DAEMON@mx.example.net>
To: ${BOUNCE_TO}
Subject: Mail delivery failed
Content-Type: text/plain

Hi. This is the mail system at mx.example.net. I'm sorry to have to inform you that your message
could not be delivered to carol@example.org because the mailbox does not exist.
`);
  expect(c).toMatchObject({ kind: 'bounce', type: 'hard', recipient: 'carol@example.org' });
});

test("a notice that names no address: the returned message's To:", async () => {
  const c = await classify(`From: MAILER-DAEMON@mx.example.net
To: ${BOUNCE_TO}
Subject: Returned mail: User unknown
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="B"

--B
Content-Type: text/plain

The following addresses had permanent delivery errors.

--B
Content-Type: message/rfc822

${returned}

Hi Ada
--B--
`);
  expect(c).toMatchObject({ kind: 'bounce', type: 'hard', recipient: 'ada@example.org' });
});

test('the quoted "To:" of an original message in the text, when nothing else names the address', async () => {
  const c = await classify(`From: MMSC NDR Administrator <sysadmin@mmsc.example.net>
To: ${BOUNCE_TO}
Subject: Undeliverable Message
Content-Type: text/plain

Message could not be delivered to mobile.

Original Message:
From: Sales <sales@example.com>
To: 0000000000@mms.example.net
Subject: Hello Ada
`);
  expect(c).toMatchObject({ kind: 'bounce', recipient: '0000000000@mms.example.net' });
});

test('Exim\'s "Unrouteable mail domain" with no status is hard (the domain does not exist)', async () => {
  const c = await classify(`From: Mail Delivery System <Mailer-Daemon@mx.example.net>
To: ${BOUNCE_TO}
Subject: Mail delivery failed: returning message to sender
X-Failed-Recipients: dave@example.invalid
Content-Type: text/plain

This message was created automatically by mail delivery software.

A message that you sent could not be delivered to one or more of its
recipients. This is a permanent error. The following address(es) failed:

  dave@example.invalid
    Unrouteable mail domain "example.invalid"
`);
  expect(c).toMatchObject({ kind: 'bounce', type: 'hard', status: null, recipient: 'dave@example.invalid' });
});
