import { checkWebhookUrl, classifyAddress, classifyHost, isAllowedAddress } from '../../domain/ssrf';

describe('address classes', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'forbidden'],
    ['169.254.0.1', 'forbidden'],
    ['fd00:ec2::254', 'forbidden'],
    ['fe80::1', 'forbidden'],
    ['100.100.100.200', 'forbidden'],
    ['::ffff:169.254.169.254', 'forbidden'],
    ['64:ff9b::a9fe:a9fe', 'forbidden'], // NAT64 of 169.254.169.254
    ['2002:a9fe:a9fe::1', 'forbidden'], // 6to4 of 169.254.169.254
    ['0.0.0.0', 'forbidden'],
    ['::', 'forbidden'],
    ['224.0.0.1', 'forbidden'],
    ['not-an-ip', 'forbidden'],
  ])('%s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  it('classifies names that say what they are, and leaves others to DNS', () => {
    expect(classifyHost('localhost')).toBe('loopback');
    expect(classifyHost('api.localhost.')).toBe('loopback');
    expect(classifyHost('db.internal')).toBe('private');
    expect(classifyHost('printer.local')).toBe('private');
    expect(classifyHost('metadata.google.internal')).toBe('forbidden');
    expect(classifyHost('hooks.example.com')).toBeNull();
  });
});

describe('policy', () => {
  const none = { loopback: false, private: false };
  const everything = { loopback: true, private: true };

  it('public addresses pass any policy; forbidden ones none', () => {
    expect(isAllowedAddress('8.8.8.8', none)).toBe(true);
    expect(isAllowedAddress('169.254.169.254', everything)).toBe(false);
    expect(isAllowedAddress('fd00:ec2::254', everything)).toBe(false);
  });

  it('loopback and private ranges each need their own setting', () => {
    expect(isAllowedAddress('127.0.0.1', { loopback: true, private: false })).toBe(true);
    expect(isAllowedAddress('10.0.0.1', { loopback: true, private: false })).toBe(false);
    expect(isAllowedAddress('10.0.0.1', { loopback: false, private: true })).toBe(true);
    expect(isAllowedAddress('127.0.0.1', { loopback: false, private: true })).toBe(false);
  });

  it('http only for loopback hosts, and only when loopback is allowed', () => {
    expect(checkWebhookUrl('http://127.0.0.1:4000/h', { loopback: true, private: false })).toMatchObject({ ok: true });
    expect(checkWebhookUrl('http://127.0.0.1:4000/h', none)).toEqual({ ok: false, reason: 'must use https' });
    expect(checkWebhookUrl('http://10.0.0.1/h', everything)).toEqual({ ok: false, reason: 'must use https' });
    expect(checkWebhookUrl('https://10.0.0.1/h', everything)).toMatchObject({ ok: true });
    expect(checkWebhookUrl('https://[fd00:ec2::254]/', everything)).toMatchObject({ ok: false, reason: expect.stringMatching(/metadata/) });
  });
});
