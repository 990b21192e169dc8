/**
 * Messages that come back to a sender, written for the tests in the shapes real MTAs and
 * providers produce (Gmail, Outlook/Exchange, Postfix, Exim, qmail, Sendmail, Yahoo), plus an ARF
 * complaint, auto-replies and human replies. `token` is the VERP token of the message they answer.
 */
export const TOKEN = '0123456789abcdef0123456789abcdef';
export const DOMAINS = { bounce: 'bounces.test', reply: 'reply.test' };
export const ORIGINAL_ID = '<seq.11111111-2222-3333-4444-555555555555.66666666-7777-8888-9999-000000000000@reply.test>';
const BOUNCE_TO = `bounce+${TOKEN}@${DOMAINS.bounce}`;
const REPLY_TO = `reply+${TOKEN}@${DOMAINS.reply}`;

const originalHeaders = `Return-Path: <${BOUNCE_TO}>
From: Sales <sales@example.com>
To: ada@example.org
Subject: Hello Ada
Message-ID: ${ORIGINAL_ID}
Date: Mon, 23 Nov 2026 08:00:00 +0000`;

/** A standard RFC 3464 report: human text, machine status, returned headers. */
function dsnMail(o: { from: string; subject: string; human: string; perRecipient: string; mta: string; extraHeaders?: string }): string {
  return `From: ${o.from}
To: ${BOUNCE_TO}
Subject: ${o.subject}
Date: Mon, 23 Nov 2026 08:00:05 +0000
Message-ID: <dsn-${Math.random().toString(36).slice(2)}@${o.mta}>
${o.extraHeaders ? `${o.extraHeaders}\n` : ''}MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="BOUNDARY"

--BOUNDARY
Content-Type: text/plain; charset=utf-8

${o.human}

--BOUNDARY
Content-Type: message/delivery-status

Reporting-MTA: dns; ${o.mta}
Arrival-Date: Mon, 23 Nov 2026 08:00:01 +0000

${o.perRecipient}

--BOUNDARY
Content-Type: text/rfc822-headers

${originalHeaders}

--BOUNDARY--
`.replace(/\n/g, '\r\n');
}

/** A plain-text bounce (no DSN), as Exim, qmail, old Sendmail and Yahoo send them. */
function plainBounce(o: { from: string; subject: string; body: string; extraHeaders?: string }): string {
  return `From: ${o.from}
To: ${BOUNCE_TO}
Subject: ${o.subject}
Date: Mon, 23 Nov 2026 08:00:05 +0000
${o.extraHeaders ? `${o.extraHeaders}\n` : ''}Content-Type: text/plain; charset=us-ascii

${o.body}

------ This is a copy of the message, including all the headers. ------

${originalHeaders}

Hi Ada, ...
`.replace(/\n/g, '\r\n');
}

export interface CorpusMessage {
  name: string;
  raw: string;
  envelope: { mailFrom: string; recipients: string[] };
  expect:
    | { kind: 'bounce'; type: 'hard' | 'soft'; status?: string }
    | { kind: 'warning'; status?: string }
    | { kind: 'complaint' | 'auto_reply' | 'reply' };
}

const toBounce = { mailFrom: '', recipients: [BOUNCE_TO] };

export const BOUNCES: CorpusMessage[] = [
  {
    name: 'Gmail: address not found (DSN 5.1.1)',
    envelope: toBounce,
    expect: { kind: 'bounce', type: 'hard', status: '5.1.1' },
    raw: dsnMail({
      from: 'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
      subject: 'Delivery Status Notification (Failure)',
      mta: 'mx.google.com',
      human: "** Address not found **\n\nYour message wasn't delivered to ada@example.org because the address couldn't be found.",
      perRecipient:
        "Final-Recipient: rfc822; ada@example.org\nAction: failed\nStatus: 5.1.1\nRemote-MTA: dns; gmail-smtp-in.l.google.com\nDiagnostic-Code: smtp; 550-5.1.1 The email account that you tried to reach does\n not exist. Please try double-checking the recipient's email address.",
    }),
  },
  {
    name: 'Gmail: mailbox full (DSN 4.2.2, delayed): a warning, not a bounce',
    envelope: toBounce,
    expect: { kind: 'warning', status: '4.2.2' },
    raw: dsnMail({
      from: 'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
      subject: 'Delivery Status Notification (Delay)',
      mta: 'mx.google.com',
      human: "** Message not delivered yet **\n\nThe recipient's inbox is full. Gmail will retry for 46 more hours.",
      perRecipient:
        'Final-Recipient: rfc822; ada@example.org\nAction: delayed\nStatus: 4.2.2\nDiagnostic-Code: smtp; 452-4.2.2 The email account that you tried to reach is over quota.',
    }),
  },
  {
    name: 'Outlook/Exchange Online: RecipientNotFound (DSN 5.1.10)',
    envelope: toBounce,
    expect: { kind: 'bounce', type: 'hard', status: '5.1.10' },
    raw: dsnMail({
      from: 'Microsoft Outlook <MicrosoftExchange329e71ec88ae4615bbc36ab6ce41109e@contoso.onmicrosoft.com>',
      subject: 'Undeliverable: Hello Ada',
      mta: 'BN8PR12MB3300.namprd12.prod.outlook.com',
      extraHeaders: 'X-MS-Exchange-Message-Is-Ndr:\nAuto-Submitted: auto-replied',
      human: "Delivery has failed to these recipients or groups:\n\nada@example.org\nThe email address you entered couldn't be found.",
      perRecipient:
        'Original-Recipient: rfc822;ada@example.org\nFinal-Recipient: rfc822;ada@example.org\nAction: failed\nStatus: 5.1.10\nDiagnostic-Code: smtp;550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
    }),
  },
  {
    name: 'Exchange on-premises: policy rejection (DSN 5.7.1)',
    envelope: toBounce,
    expect: { kind: 'bounce', type: 'hard', status: '5.7.1' },
    raw: dsnMail({
      from: 'postmaster@corp.example.net',
      subject: 'Undeliverable: Hello Ada',
      mta: 'EXCH01.corp.example.net',
      human: "Your message to ada@example.org couldn't be delivered.",
      perRecipient:
        'Final-Recipient: rfc822;ada@example.org\nAction: failed\nStatus: 5.7.1\nDiagnostic-Code: smtp;550 5.7.1 RESOLVER.RST.NotAuthorized; not authorized',
    }),
  },
  {
    name: 'Postfix: user unknown (DSN 5.1.1)',
    envelope: toBounce,
    expect: { kind: 'bounce', type: 'hard', status: '5.1.1' },
    raw: dsnMail({
      from: 'MAILER-DAEMON@mail.example.org (Mail Delivery System)',
      subject: 'Undelivered Mail Returned to Sender',
      mta: 'mail.example.org',
      human:
        "This is the mail system at host mail.example.org.\n\nI'm sorry to have to inform you that your message could not\nbe delivered to one or more recipients.\n\n<ada@example.org>: host mx.example.org said: 550 5.1.1 <ada@example.org>:\n    Recipient address rejected: User unknown in local recipient table",
      perRecipient:
        'Final-Recipient: rfc822; ada@example.org\nOriginal-Recipient: rfc822;ada@example.org\nAction: failed\nStatus: 5.1.1\nRemote-MTA: dns; mx.example.org\nDiagnostic-Code: smtp; 550 5.1.1 <ada@example.org>: Recipient address rejected:\n    User unknown in local recipient table',
    }),
  },
  {
    name: 'Postfix: delayed mail (DSN 4.4.1, action delayed): a warning',
    envelope: toBounce,
    expect: { kind: 'warning', status: '4.4.1' },
    raw: dsnMail({
      from: 'MAILER-DAEMON@mail.example.org (Mail Delivery System)',
      subject: 'Delayed Mail (still being retried)',
      mta: 'mail.example.org',
      human:
        'This is the mail system at host mail.example.org.\n\n####################################################################\n# THIS IS A WARNING ONLY.  YOU DO NOT NEED TO RESEND YOUR MESSAGE. #\n####################################################################',
      perRecipient:
        'Final-Recipient: rfc822; ada@example.org\nAction: delayed\nStatus: 4.4.1\nDiagnostic-Code: X-Postfix; connect to mx.example.org[192.0.2.1]:25: Connection timed out\nWill-Retry-Until: Fri, 27 Nov 2026 08:00:01 +0000 (UTC)',
    }),
  },
  {
    name: 'Exim: permanent error (plain text, Auto-Submitted set)',
    envelope: toBounce,
    expect: { kind: 'bounce', type: 'hard', status: '550' },
    raw: plainBounce({
      from: 'Mail Delivery System <Mailer-Daemon@mx1.example.net>',
      subject: 'Mail delivery failed: returning message to sender',
      extraHeaders: 'Auto-Submitted: auto-replied\nX-Failed-Recipients: ada@example.org',
      body: 'This message was created automatically by mail delivery software.\n\nA message that you sent could not be delivered to one or more of its\nrecipients. This is a permanent error. The following address(es) failed:\n\n  ada@example.org\n    host mx.example.org [192.0.2.1]\n    SMTP error from remote mail server after RCPT TO:<ada@example.org>:\n    550 Unrouteable address',
    }),
  },
  {
    name: 'Exim: delay warning (plain text): a warning',
    envelope: toBounce,
    expect: { kind: 'warning' },
    raw: plainBounce({
      from: 'Mail Delivery System <Mailer-Daemon@mx1.example.net>',
      subject: 'Warning: message 1kXyZa-0004Qe-Fw delayed 24 hours',
      extraHeaders: 'Auto-Submitted: auto-replied',
      body: 'This message was created automatically by mail delivery software.\n\nA message that you sent has not yet been delivered to one or more of its\nrecipients after more than 24 hours on the queue on mx1.example.net.\n\n  ada@example.org\n    host mx.example.org [192.0.2.1]: 451 4.3.0 Temporary lookup failure\n\nNo action is required on your part. Delivery attempts will continue for\nsome time, and this warning may be repeated at intervals if the message\nremains undelivered.',
    }),
  },
  {
    name: 'qmail: failure notice, no mailbox (#5.1.1)',
    envelope: toBounce,
    expect: { kind: 'bounce', type: 'hard', status: '5.1.1' },
    raw: plainBounce({
      from: 'MAILER-DAEMON@qmail.example.com',
      subject: 'failure notice',
      body: "Hi. This is the qmail-send program at qmail.example.com.\nI'm afraid I wasn't able to deliver your message to the following addresses.\nThis is a permanent error; I've given up. Sorry it didn't work out.\n\n<ada@example.org>:\nSorry, no mailbox here by that name. (#5.1.1)",
    }),
  },
  {
    name: 'qmail: remote host said 552 quota (mailbox full, 5.2.2 is soft)',
    envelope: toBounce,
    expect: { kind: 'bounce', type: 'soft', status: '5.2.2' },
    raw: plainBounce({
      from: 'MAILER-DAEMON@qmail.example.com',
      subject: 'failure notice',
      body: "Hi. This is the qmail-send program at qmail.example.com.\nI'm afraid I wasn't able to deliver your message to the following addresses.\n\n<ada@example.org>:\n192.0.2.1 failed after I sent the message.\nRemote host said: 552 5.2.2 Mailbox full, over quota",
    }),
  },
  {
    name: 'Sendmail: returned mail, user unknown (plain text)',
    envelope: toBounce,
    expect: { kind: 'bounce', type: 'hard', status: '5.1.1' },
    raw: plainBounce({
      from: 'Mail Delivery Subsystem <MAILER-DAEMON@smtp.example.edu>',
      subject: 'Returned mail: see transcript for details',
      body: 'The original message was received at Mon, 23 Nov 2026 08:00:01 GMT\nfrom localhost [127.0.0.1]\n\n   ----- The following addresses had permanent fatal errors -----\n<ada@example.org>\n    (reason: 550 5.1.1 <ada@example.org>... User unknown)\n\n   ----- Transcript of session follows -----\n... while talking to mx.example.org.:\n>>> RCPT To:<ada@example.org>\n<<< 550 5.1.1 <ada@example.org>... User unknown',
    }),
  },
  {
    name: 'Sendmail: warning, could not send for 4 hours: a warning',
    envelope: toBounce,
    expect: { kind: 'warning', status: '4.4.7' },
    raw: plainBounce({
      from: 'Mail Delivery Subsystem <MAILER-DAEMON@smtp.example.edu>',
      subject: 'Warning: could not send message for past 4 hours',
      body: '    **********************************************\n    **      THIS IS A WARNING MESSAGE ONLY      **\n    **  YOU DO NOT NEED TO RESEND YOUR MESSAGE  **\n    **********************************************\n\nThe original message was received at Mon, 23 Nov 2026 04:00:01 GMT\n\n   ----- Transcript of session follows -----\n<ada@example.org>... Deferred: Connection timed out with mx.example.org.\nWarning: message still undelivered after 4 hours\nWill keep trying until message is 5 days old\n(status 4.4.7)',
    }),
  },
  {
    name: "Yahoo: this user doesn't have an account (554, plain text)",
    envelope: toBounce,
    expect: { kind: 'bounce', type: 'hard', status: '554' },
    raw: plainBounce({
      from: 'MAILER-DAEMON@yahoo.com',
      subject: 'Failure Notice',
      body: "Sorry, we were unable to deliver your message to the following address.\n\n<ada@yahoo.com>:\n554: delivery error: dd This user doesn't have a yahoo.com account (ada@yahoo.com) [0] - mta1234.mail.gq1.yahoo.com",
    }),
  },
];

const base = (o: { subject: string; headers?: string; body: string; to?: string }) =>
  `From: Ada Lovelace <ada@example.org>
To: ${o.to ?? REPLY_TO}
Subject: ${o.subject}
Date: Mon, 23 Nov 2026 09:00:00 +0000
Message-ID: <r-${Math.random().toString(36).slice(2)}@example.org>
${o.headers ? `${o.headers}\n` : ''}Content-Type: text/plain; charset=utf-8

${o.body}
`.replace(/\n/g, '\r\n');

const toReply = { mailFrom: 'ada@example.org', recipients: [REPLY_TO] };

export const OTHERS: CorpusMessage[] = [
  {
    name: 'ARF complaint (RFC 5965) from a feedback loop',
    envelope: { mailFrom: 'fbl@isp.example', recipients: [BOUNCE_TO] },
    expect: { kind: 'complaint' },
    raw: `From: Feedback Loop <fbl@isp.example>
To: ${BOUNCE_TO}
Subject: FW: Hello Ada
Date: Mon, 23 Nov 2026 09:00:00 +0000
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="ARF"

--ARF
Content-Type: text/plain

This is an email abuse report for an email message received from IP 192.0.2.10.

--ARF
Content-Type: message/feedback-report

Feedback-Type: abuse
User-Agent: SomeGenerator/1.0
Version: 1
Original-Mail-From: <${BOUNCE_TO}>
Original-Rcpt-To: <ada@example.org>
Arrival-Date: Mon, 23 Nov 2026 08:00:01 +0000

--ARF
Content-Type: message/rfc822

${originalHeaders}

Hi Ada
--ARF--
`.replace(/\n/g, '\r\n'),
  },
  {
    name: 'Auto-reply: RFC 3834 Auto-Submitted',
    envelope: toReply,
    expect: { kind: 'auto_reply' },
    raw: base({ subject: 'Re: Hello Ada', headers: `Auto-Submitted: auto-replied\nIn-Reply-To: ${ORIGINAL_ID}`, body: 'I am away.' }),
  },
  {
    name: 'Auto-reply: X-Autoreply header, sent to the return path',
    envelope: { mailFrom: '', recipients: [BOUNCE_TO] },
    expect: { kind: 'auto_reply' },
    raw: base({ subject: 'Re: Hello Ada', to: BOUNCE_TO, headers: 'X-Autoreply: yes', body: 'Thanks, I will get back to you.' }),
  },
  {
    name: 'Auto-reply: out-of-office subject only',
    envelope: toReply,
    expect: { kind: 'auto_reply' },
    raw: base({ subject: 'Out of Office: Hello Ada', headers: `In-Reply-To: ${ORIGINAL_ID}`, body: 'Back on Monday.' }),
  },
  {
    name: 'Human reply to the Reply-To address with In-Reply-To',
    envelope: toReply,
    expect: { kind: 'reply' },
    raw: base({
      subject: 'Re: Hello Ada',
      headers: `In-Reply-To: ${ORIGINAL_ID}\nReferences: ${ORIGINAL_ID}`,
      body: 'Sounds good, call me.',
    }),
  },
];
