import { startRadicale } from './test/helpers/radicale';
import { caldavClient, discoverHome, listCalendars, readChanges, explainCaldavFailure } from './services/calendars/caldav-read';

const ev = (uid: string, start: string) => ['BEGIN:VCALENDAR','VERSION:2.0','PRODID:-//x//EN','BEGIN:VEVENT',`UID:${uid}`,'DTSTAMP:20300101T000000Z',`DTSTART:${start}`,'DURATION:PT1H','SUMMARY:x','END:VEVENT','END:VCALENDAR',''].join('\r\n');
async function main() {
  const r = await startRadicale({ users: { alice: 'pw' } });
  try {
    const cal = await r.mkcalendar('alice', 'work', 'Work');
    await r.put('alice', cal, 'a.ics', ev('a', '20300105T100000Z'));
    await r.put('alice', cal, 'b.ics', ev('b', '20300106T100000Z'));
    const policy = { loopback: true, private: false };
    const c = caldavClient({ url: r.url, username: 'alice', password: 'pw' }, policy);
    const home = await discoverHome(c);
    console.log('home', home);
    const cals = await listCalendars(c, home);
    console.log(cals);
    const first = await readChanges(c, cals[0], { syncToken: null, ctag: null, etags: new Map() });
    console.log(JSON.stringify(first, null, 1).slice(0, 1500));
    await r.put('alice', cal, 'a.ics', ev('a', '20300107T100000Z'));
    await r.remove('alice', cal + 'b.ics');
    const cals2 = await listCalendars(c, home);
    const known = new Map(first!.changed.map((o) => [o.href, o.etag]));
    const second = await readChanges(c, cals2[0], { syncToken: first!.syncToken, ctag: first!.ctag, etags: known });
    console.log('second', JSON.stringify(second, null, 1).slice(0, 1500));
    const cals3 = await listCalendars(c, home);
    console.log('third', await readChanges(c, cals3[0], { syncToken: second!.syncToken, ctag: second!.ctag, etags: known }));
    // bogus token
    console.log('bogus', JSON.stringify(await readChanges(c, cals3[0], { syncToken: 'http://radicale.org/ns/sync/nope', ctag: null, etags: known })).slice(0, 300));
    const bad = caldavClient({ url: r.url, username: 'alice', password: 'wrong' }, policy);
    try { await discoverHome(bad); } catch (e) { console.log('wrong pw:', explainCaldavFailure(e, bad)); }
    const un = caldavClient({ url: 'http://127.0.0.1:9', username: 'alice', password: 'pw' }, policy);
    try { await discoverHome(un); } catch (e) { console.log('unreachable:', explainCaldavFailure(e, un)); }
    const priv = caldavClient({ url: 'https://10.1.2.3/', username: 'alice', password: 'pw' }, policy);
    try { await discoverHome(priv); } catch (e) { console.log('private:', explainCaldavFailure(e, priv)); }
  } finally { await r.dispose(); }
}
main().catch((e) => { console.error(e); process.exit(1); });
