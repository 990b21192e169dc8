/**
 * The test CalDAV server itself (test/helpers/radicale.ts): it starts, answers PROPFIND with the
 * CalDAV properties discovery needs, refuses a wrong password, stores what is PUT and gives it back
 * in a REPORT, and survives a stop/start on the same port with its storage.
 */
import { useRadicale } from '../helpers/radicale';

const radicale = useRadicale({ users: { alice: 'alice-pw', bob: 'bob-pw' } });

const EVENT = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//fss test//EN',
  'BEGIN:VEVENT',
  'UID:radicale-test-1@fss.test',
  'DTSTAMP:20300101T000000Z',
  'DTSTART:20300105T100000Z',
  'DTEND:20300105T110000Z',
  'SUMMARY:Planning',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

describe('Radicale test server', () => {
  it('answers a CalDAV PROPFIND with the principal and its calendar-home-set', async () => {
    const s = radicale.server;
    const res = await s.request('alice', 'PROPFIND', s.principalUrl('alice'), {
      headers: { Depth: '0', 'Content-Type': 'application/xml' },
      body: `<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:current-user-principal/><C:calendar-home-set/></D:prop></D:propfind>`,
    });
    expect(res.status).toBe(207);
    const xml = await res.text();
    expect(xml).toMatch(/calendar-home-set>\s*<href>\/alice\/<\/href>/);
    expect(xml).toMatch(/current-user-principal>\s*<href>\/alice\/<\/href>/);
  });

  it('points /.well-known/caldav somewhere (RFC 6764) and refuses a wrong password with 401', async () => {
    const s = radicale.server;
    const wellKnown = await fetch(`${s.url}/.well-known/caldav`, { method: 'PROPFIND', redirect: 'manual' });
    expect([301, 302, 307, 308]).toContain(wellKnown.status);
    const wrong = await fetch(s.principalUrl('alice'), {
      method: 'PROPFIND',
      headers: { Authorization: 'Basic ' + Buffer.from('alice:nope').toString('base64'), Depth: '0' },
    });
    expect(wrong.status).toBe(401);
  });

  it('creates a calendar, stores a PUT object and gives it back in a calendar-query REPORT', async () => {
    const s = radicale.server;
    const cal = await s.mkcalendar('alice', 'work', 'Work');
    const etag = await s.put('alice', cal, 'one.ics', EVENT);
    expect(etag).toBeTruthy();
    const objects = await s.report('alice', cal);
    expect(objects).toHaveLength(1);
    expect(objects[0].href).toBe('/alice/work/one.ics');
    expect(objects[0].etag).toBe(etag);
    expect(objects[0].data).toContain('UID:radicale-test-1@fss.test');
    // Another user cannot read it (owner_only rights).
    const bobs = await s.request('bob', 'REPORT', cal, { headers: { Depth: '1' }, body: '<x/>' });
    expect(bobs.status).toBe(403);
  });

  it('restarts on the same port with its storage after stop()', async () => {
    const s = radicale.server;
    await s.stop();
    expect(s.running()).toBe(false);
    await expect(fetch(s.principalUrl('alice'), { method: 'PROPFIND' })).rejects.toThrow();
    await s.start();
    const objects = await s.report('alice', `${s.url}/alice/work/`);
    expect(objects.map((o) => o.href)).toEqual(['/alice/work/one.ics']);
  });
});
