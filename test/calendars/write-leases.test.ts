/**
 * The write slots of a calendar account (services/calendars/write-leases.ts, docs/calendars.md
 * "Writes in flight per account") on their own, against PostgreSQL: takes racing on separate
 * connections (as separate workers would) never get more than the limit, a slot given back is free
 * again, and a lease a lost worker left behind stops counting once it has expired.
 */
import { CalendarWriteBusy, takeWriteLease, withWriteSlot } from '../../services/calendars/write-leases';
import { testConfig } from '../helpers/config';
import { eventually } from '../helpers/smtp';
import { useApiWorld } from '../helpers/world';

const w = useApiWorld({ app: false });
const config = testConfig({ CALENDAR_WRITES_PER_ACCOUNT: '2' });
const deps = () => ({ db: w.tdb.db, config });
let connectionId: string;

beforeAll(async () => {
  const [row] = await w.tdb
    .db('calendar_connections')
    .insert({
      team_id: w.team.teamId,
      user_id: w.team.userId,
      kind: 'google',
      name: 'Google Calendar',
      display_url: 'https://calendar.google.com',
      credentials_enc: 'sealed',
    })
    .returning('id');
  connectionId = row.id;
});
afterEach(() => w.tdb.db('calendar_write_leases').delete());

const leases = () => w.tdb.db('calendar_write_leases').where({ connection_id: connectionId });

test('twelve takes at once on separate connections: exactly two get a slot', async () => {
  // Twelve pooled connections open first, so that the takes really run side by side.
  await Promise.all(Array.from({ length: 12 }, () => w.tdb.db.raw('SELECT pg_sleep(0.05)')));
  const got = await Promise.all(Array.from({ length: 12 }, () => takeWriteLease(deps(), { connectionId })));
  expect(got.filter(Boolean)).toHaveLength(2);
  expect(await leases()).toHaveLength(2);
});

test('a write that holds a slot: a third is refused with CalendarWriteBusy and no call; the slot is given back after a failure too', async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const first = withWriteSlot(deps(), { connectionId, run: () => held });
  await eventually(async () => (await leases()).length === 1, 'the first write holding its slot');
  const second = withWriteSlot(deps(), { connectionId, run: () => Promise.reject(new Error('provider down')) });
  await expect(second).rejects.toThrow('provider down');
  // One slot is still held (the first write), the failed one gave its slot back.
  expect(await leases()).toHaveLength(1);
  await takeWriteLease(deps(), { connectionId }); // a second holder
  let called = false;
  const third = withWriteSlot(deps(), {
    connectionId,
    run: async () => {
      called = true;
    },
  });
  await expect(third).rejects.toBeInstanceOf(CalendarWriteBusy);
  expect(called).toBe(false);
  release();
  await first;
  expect(await leases()).toHaveLength(1);
});

test("an expired lease (a lost worker's) no longer counts and is dropped by the next take", async () => {
  const past = new Date(Date.now() - 1000);
  await w.tdb.db('calendar_write_leases').insert([
    { connection_id: connectionId, expires_at: past },
    { connection_id: connectionId, expires_at: past },
  ]);
  expect(await takeWriteLease(deps(), { connectionId })).not.toBeNull();
  const left = await leases();
  expect(left).toHaveLength(1);
  expect(left[0].expires_at.getTime()).toBeGreaterThan(Date.now() + 100_000); // WRITE_LEASE_MS ahead
});
