/**
 * A delivery status notification (RFC 3464) as Postfix writes one, from mx.example.net about
 * ada@example.org: a human part, the machine part with the recipient's Status and Diagnostic-Code,
 * and the returned message's headers when given.
 */
export function dsnMessage(o: { to: string; status: string; diagnostic: string; returnedHeaders?: string }): string {
  const returned = o.returnedHeaders === undefined ? [] : ['--B', 'Content-Type: text/rfc822-headers', '', o.returnedHeaders, ''];
  return [
    'From: MAILER-DAEMON@mx.example.net',
    `To: ${o.to}`,
    'Subject: Undelivered Mail Returned to Sender',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
    '',
    '--B',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Your message could not be delivered.',
    '',
    '--B',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.net',
    '',
    'Final-Recipient: rfc822; ada@example.org',
    'Action: failed',
    `Status: ${o.status}`,
    `Diagnostic-Code: smtp; ${o.diagnostic}`,
    '',
    ...returned,
    '--B--',
    '',
  ].join('\r\n');
}
