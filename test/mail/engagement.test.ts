import { classifyClick, classifyOpen, isAppleNetwork, SCANNER_CLICK_WINDOW_MS } from '../../domain/engagement';
import { sendgridIdPrefixes, smtpQueueId } from '../../domain/mail-address';
import { client } from '../helpers/http';
import { makeContact, makeEnrollment, makeSequence } from '../sequences/support/factory';
import { useApiWorld } from '../helpers/world';

/** Machine opens and scanner clicks are counted apart from people's (docs/sequences.md). */
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const APPLE_MAIL = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)';
const GMAIL_PROXY = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';

describe('the heuristics (domain/engagement.ts)', () => {
  const delivered = new Date('2026-03-01T10:00:00Z');
  const at = (seconds: number) => new Date(delivered.getTime() + seconds * 1000);
  const f = (userAgent: string | null, ip: string | null, seconds: number, method = 'GET') => ({
    userAgent,
    ip,
    method,
    at: at(seconds),
    deliveredAt: delivered,
  });

  test.each([
    ['Apple MPP: bare "Mozilla/5.0"', true, f('Mozilla/5.0', '104.28.1.2', 3600)],
    ['Apple MPP: an Apple network address', true, f(APPLE_MAIL, '17.58.101.4', 3600)],
    ['Apple MPP: IPv4-mapped Apple address', true, f(APPLE_MAIL, '::ffff:17.1.2.3', 3600)],
    ['Apple MPP: Apple IPv6', true, f(APPLE_MAIL, '2620:149:a:1::5', 3600)],
    ['Gmail image proxy seconds after delivery: a prefetch', true, f(GMAIL_PROXY, '66.249.84.1', 4)],
    ['no user agent', true, f('', '203.0.113.9', 3600)],
    ['a HEAD request', true, f(CHROME, '198.51.100.7', 3600, 'HEAD')],
    ['a security gateway', true, f('Mozilla/5.0 (compatible; Barracuda Sentinel)', '198.51.100.7', 3600)],
    ['python-requests', true, f('python-requests/2.31', '198.51.100.7', 3600)],
    ['Apple Mail on a Mac, outside Apple', false, f(APPLE_MAIL, '81.2.69.142', 3600)],
    ['Gmail image proxy an hour later: the reader opened it', false, f(GMAIL_PROXY, '66.249.84.1', 3600)],
    ['a browser (webmail) seconds after delivery', false, f(CHROME, '81.2.69.142', 2)],
    ['a provider event without a user agent', false, f(null, null, 3600)],
  ])('open: %s → machine: %s', (_name, machine, fetch) => {
    expect(classifyOpen(fetch).machine).toBe(machine);
  });

  test.each([
    ['seconds after delivery', true, f(CHROME, '81.2.69.142', 3)],
    ['at the edge of the window', true, f(CHROME, '81.2.69.142', SCANNER_CLICK_WINDOW_MS / 1000)],
    ['a scanner user agent, later', true, f('Mozilla/5.0 (compatible; proofpoint urldefense)', '81.2.69.142', 3600)],
    ['a HEAD request', true, f(CHROME, '81.2.69.142', 3600, 'HEAD')],
    ['curl', true, f('curl/8.4.0', '81.2.69.142', 3600)],
    ['a person, a minute later', false, f(CHROME, '81.2.69.142', 60)],
    ['a person on an iPhone, later', false, f(APPLE_MAIL, '17.1.1.1', 600)],
    ['a provider event without a user agent, later', false, f(null, null, 600)],
  ])('click: %s → scanner: %s', (_name, scanner, fetch) => {
    expect(classifyClick(fetch).machine).toBe(scanner);
  });

  test('Apple networks', () => {
    expect(isAppleNetwork('17.0.0.1')).toBe(true);
    expect(isAppleNetwork('170.0.0.1')).toBe(false);
    expect(isAppleNetwork('2a01:b740:a41::1')).toBe(true);
    expect(isAppleNetwork('2001:db8::1')).toBe(false);
    expect(isAppleNetwork(null)).toBe(false);
  });

  test('the queue id of an SMTP 250 answer, and the prefixes of a SendGrid sg_message_id', () => {
    expect(smtpQueueId('250 Ok: queued as 14c5d75ce93.dfd.64b469')).toBe('14c5d75ce93.dfd.64b469');
    expect(smtpQueueId('250 2.0.0 Ok: queued as 4XyZ1234AB')).toBe('4XyZ1234AB');
    expect(smtpQueueId('250 OK: queued as <AbC_d-E>')).toBe('AbC_d-E');
    expect(smtpQueueId('250 2.0.0 OK  1700000000 a1-20020a170906.123 - gsmtp')).toBeNull();
    expect(smtpQueueId(undefined)).toBeNull();
    expect(sendgridIdPrefixes('14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0')).toEqual([
      '14c5d75ce93',
      '14c5d75ce93.dfd',
      '14c5d75ce93.dfd.64b469',
      '14c5d75ce93.dfd.64b469.filter0001',
      '14c5d75ce93.dfd.64b469.filter0001.16648',
      '14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88',
      '14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0',
    ]);
  });
});

describe('the tracking routes and analytics', () => {
  const w = useApiWorld();

  /** A sent email of a one-step sequence, accepted `acceptedAgoMs` ago. */
  async function sent(sequenceId: string, stepId: string, acceptedAgoMs: number) {
    const contact = await makeContact(w.tdb.db, w.team.teamId);
    const enrollmentId = await makeEnrollment(w.tdb.db, w.team.teamId, sequenceId, contact);
    const token = `tok${Math.random().toString(36).slice(2)}xxxxxxxx`;
    await w.tdb.db('sequence_sends').insert({
      team_id: w.team.teamId,
      sequence_id: sequenceId,
      enrollment_id: enrollmentId,
      step_id: stepId,
      contact_id: contact,
      position: 0,
      channel: 'email',
      status: 'sent',
      token,
      links: JSON.stringify(['https://example.com/pricing']),
      sent_at: new Date(Date.now() - acceptedAgoMs),
      accepted_at: new Date(Date.now() - acceptedAgoMs),
    });
    return token;
  }
  const hit = (path: string, userAgent: string, method = 'GET') =>
    fetch(`${w.app.baseUrl}${path}`, { method, redirect: 'manual', headers: { 'user-agent': userAgent } });

  test('opened vs machine_opened and clicked vs scanner_clicked, per step', async () => {
    const seq = await makeSequence(w.tdb.db, w.team.teamId);
    const step = seq.steps![0].id;
    const hour = 3_600_000;
    // 1: Apple's proxy fetches the pixel, then the reader opens it and clicks an hour later.
    const a = await sent(seq.id, step, hour);
    expect((await hit(`/t/o/${a}`, 'Mozilla/5.0')).status).toBe(200);
    expect((await hit(`/t/o/${a}`, APPLE_MAIL)).status).toBe(200);
    expect((await hit(`/t/c/${a}/0`, CHROME)).headers.get('location')).toBe('https://example.com/pricing');
    // 2: a security gateway follows the link the moment it arrives; nobody opens it.
    const b = await sent(seq.id, step, 1000);
    const scanned = await hit(`/t/c/${b}/0`, CHROME);
    expect(scanned.status).toBe(302); // scanners are redirected like anyone
    expect(scanned.headers.get('location')).toBe('https://example.com/pricing');
    expect((await hit(`/t/o/${b}`, CHROME, 'HEAD')).status).toBe(200);
    // 3: a person opens it on an iPhone (Mail's full user agent, not from Apple's network).
    const c = await sent(seq.id, step, hour);
    await hit(`/t/o/${c}`, APPLE_MAIL.replace('Macintosh', 'iPhone'));
    const rows = await w.tdb.db('sequence_sends').whereIn('token', [a, b, c]);
    const byToken = Object.fromEntries(rows.map((r) => [r.token, r]));
    expect(byToken[a]).toMatchObject({ opened_at: expect.any(Date), machine_opened_at: expect.any(Date), clicked_at: expect.any(Date) });
    expect(byToken[a].scanner_clicked_at).toBeNull();
    expect(byToken[b]).toMatchObject({
      opened_at: null,
      clicked_at: null,
      scanner_clicked_at: expect.any(Date),
      machine_opened_at: expect.any(Date),
    });
    const api = client(w.app.baseUrl, w.team.apiKey);
    const stats = (await api.get(`/api/v1/sequences/${seq.id}/analytics`)).body.data.steps[0];
    expect(stats).toMatchObject({ sent: 3, opened: 2, machine_opened: 2, clicked: 1, scanner_clicked: 1 });
  });
});
