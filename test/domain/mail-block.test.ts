import { parseMailFacts } from '../../core/mail-facts';
import { blockOf, smtpAnswerBlock, type BlockReason } from '../../domain/mail-block';
import { classifyMail } from '../../domain/mail-classify';
import { DOMAINS, TOKEN } from '../mail/corpus';
import { dsnMessage } from '../mail/dsn-message';

/**
 * Blocks (docs/sequences.md "Blocks"): the answers real receivers give when they refuse the
 * sender, not the address. Each wording is one a large receiver documents or sends (Gmail,
 * Microsoft, Yahoo/AOL, Spamhaus users, Barracuda, Exim, Postfix).
 */
const BLOCKS: Array<[string, BlockReason]> = [
  // authentication
  ['550 5.7.26 This message does not have authentication information or fails to pass authentication checks', 'authentication'],
  ["550 5.7.1 Unauthenticated email from example.com is not accepted due to domain's DMARC policy", 'authentication'],
  ['550 5.7.23 The message was rejected because of Sender Policy Framework violation', 'authentication'],
  ['550 5.7.509 Access denied, sending domain example.com does not pass DMARC verification', 'authentication'],
  ['550 5.7.25 The IP address sending this message does not have a PTR record setup', 'authentication'],
  ["550 5.1.0 192.0.2.1 is not allowed to send from <example.net> per it's SPF Record", 'authentication'],
  ['554 5.7.5 Permanent error evaluating DMARC policy', 'authentication'],
  ['554 INVALID IP FOR SENDING MAIL OF DOMAIN amazonses.com', 'authentication'],
  // reputation
  ['550 Error - Blocked for abuse. See http://example.net/nyaan', 'reputation'],
  ["550 SC-004 Unfortunately, messages from 192.0.2.1 weren't sent.", 'reputation'],
  ['554 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org', 'reputation'],
  ['550 5.7.606 Access denied, banned sending IP [192.0.2.1]', 'reputation'],
  ["553 5.7.1 [BL21] Connections will not be accepted from 192.0.2.1, because the ip is in Spamhaus's list", 'reputation'],
  ['550 SC-001 Unfortunately, messages from 192.0.2.1 were not sent: part of their network is on our block list', 'reputation'],
  ['550 5.7.1 Your IP address 192.0.2.1 is listed on a DNSBL', 'reputation'],
  ['554 Sending address has a poor reputation', 'reputation'],
  ['550 5.7.28 mail flood detected', 'reputation'],
  // content
  ['550 5.7.1 Message content rejected, UBE, id=00000-22-225', 'content'],
  ['550-5.7.1 Our system has detected that this message is likely unsolicited mail', 'content'],
  ['550 5.7.350 Remote server returned message detected as spam', 'content'],
  ['552 5.7.0 This message was blocked because its content presents a potential security issue', 'content'],
  ['554 5.7.1 Message rejected: virus detected (Eicar-Test-Signature)', 'content'],
  ['550 5.7.1 Message considered as spam or virus, rejected', 'content'],
  ['554 5.7.0 Reject, id=20025-09 - SPAM', 'content'],
  ['554 5.6.0 This message has been scored as spam with a probability of 0.9', 'content'],
  // policy
  ['550 Denied by policy', 'policy'],
  ['554 Host network not allowed', 'policy'],
  ['550 5.7.0 <shironeko@example.jp>... Please use the smtp server of your ISP.', 'policy'],
  ['550 5.7.1 Sender denied', 'policy'],
  ['554 5.7.1 Message rejected due to local policy', 'policy'],
  ['550 Administrative prohibition', 'policy'],
  ['554 Mail from nekonyaan@example.net rejected for policy reasons', 'policy'],
  ['550 5.7.1 Your mail was not accepted: not accepting mail from this sender', 'policy'],
  ['550 5.7.1 Message blocked by the recipient', 'policy'],
];

/** Rejections that look close but are about the address (or say nothing of the sender): not blocks. */
const NOT_BLOCKS: string[] = [
  '550 5.1.1 <ada@example.org>: Recipient address rejected: User unknown',
  '550 5.7.1 <ada@example.org>: Recipient address rejected: user unknown in relay recipient table',
  '550 5.7.1 Relaying denied',
  '550 5.1.1 The email account that you tried to reach does not exist (the spam folder is not involved)',
  '552 5.2.2 Mailbox full',
  '550 5.7.13 User account disabled',
  'The following mail could not be delivered. ****** Message from InterScan E-Mail VirusWall NT ******',
];

test.each(BLOCKS)('block: %s → %s', (answer, reason) => {
  expect(smtpAnswerBlock(answer)).toBe(reason);
});

test.each(NOT_BLOCKS.map((a) => [a]))('not a block: %s', (answer) => {
  expect(smtpAnswerBlock(answer)).toBeNull();
});

test('a specific status whose subject is not 7 decides alone; the RFC 7372 authentication codes are a block alone', () => {
  const e = (status: string | null, lower: string, dead = false) => ({ status, lower: () => lower, dead: () => dead });
  expect(blockOf(e('5.1.1', 'blocked using spamhaus'))).toBeNull();
  expect(blockOf(e('5.7.26', ''))).toBe('authentication');
  expect(blockOf(e('5.7.28', ''))).toBe('reputation');
  expect(blockOf(e('5.7.1', 'blocked using spamhaus', true))).toBeNull();
  expect(blockOf(e(null, 'sender denied'))).toBe('policy');
});

test('a DSN for a blocklisted IP is a block, with its reason; the same DSN for an unknown user is hard', async () => {
  const dsn = (status: string, diagnostic: string) => dsnMessage({ to: `bounce+${TOKEN}@${DOMAINS.bounce}`, status, diagnostic });
  const classify = async (raw: string) =>
    classifyMail(await parseMailFacts(raw, { mailFrom: '', recipients: [`bounce+${TOKEN}@${DOMAINS.bounce}`] }), DOMAINS).class;
  expect(await classify(dsn('5.7.1', '554 5.7.1 Client host [192.0.2.1] blocked using zen.spamhaus.org'))).toMatchObject({
    kind: 'bounce',
    type: 'block',
    block: 'reputation',
    status: '5.7.1',
    recipient: 'ada@example.org',
  });
  expect(await classify(dsn('5.1.1', '550 5.1.1 User unknown'))).toMatchObject({ kind: 'bounce', type: 'hard' });
});
