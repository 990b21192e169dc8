import { BusyCache, busyCache, overlappingIn } from '../../services/calendars/busy-cache';
import { loadHostSchedules } from '../../services/scheduling/host-schedules';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createTestTeam } from '../helpers/fixtures';

const parsed = (text: string) => Float64Array.from(text.split(','), Number);
const overlapping = (text: string, lo: number, hi: number) => overlappingIn(text === '' ? new Float64Array(0) : parsed(text), lo, hi);

/** The slot engine's read of a host's merged busy time: only the intervals overlapping [lo, hi). */
describe('overlappingIn', () => {
  const text = '10,20,30,40,50,60,70,80';
  it.each([
    [
      0,
      100,
      [
        [10, 20],
        [30, 40],
        [50, 60],
        [70, 80],
      ],
    ],
    [20, 30, []], // touching ends and starts do not overlap
    [
      19,
      31,
      [
        [10, 20],
        [30, 40],
      ],
    ],
    [35, 36, [[30, 40]]],
    [60, 70, []],
    [80, 1000, []],
    [0, 10, []],
    [0, 11, [[10, 20]]],
  ])('[%d, %d)', (lo, hi, expected) => {
    expect(overlapping(text, lo, hi).map((b) => [b.start, b.end])).toEqual(expected);
  });
  it('an empty list', () => {
    expect(overlapping('', 0, 100)).toEqual([]);
  });

  it('finds by binary search the same intervals as a full scan', () => {
    const base = Date.UTC(2030, 0, 1);
    let x = 7;
    const rnd = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pairs: Array<[number, number]> = [];
    let t = base;
    for (let i = 0; i < 500; i++) {
      const start = t + 1 + Math.floor(rnd() * 3_600_000);
      const end = start + 1 + Math.floor(rnd() * 3_600_000);
      pairs.push([start, end]);
      t = end;
    }
    const list = pairs.flat().join(',');
    for (let k = 0; k < 200; k++) {
      const lo = base + Math.floor(rnd() * (t - base));
      const hi = lo + Math.floor(rnd() * 86_400_000);
      const expected = pairs.filter(([s, e]) => s < hi && e > lo);
      expect(overlapping(list, lo, hi).map((b) => [b.start, b.end])).toEqual(expected);
    }
  });
});

describe('BusyCache', () => {
  it('gives back what it holds, by user, and forgets the least recently used past its bound', () => {
    const cache = new BusyCache(8);
    cache.put('a', 'v1', '1,2,3,4');
    cache.put('b', 'v1', '5,6');
    expect([...cache.held(['a', 'b', 'c'])].map(([id, h]) => [id, h.version, [...h.ms]])).toEqual([
      ['a', 'v1', [1, 2, 3, 4]],
      ['b', 'v1', [5, 6]],
    ]);
    cache.held(['a']); // a is now the most recently used
    cache.put('c', 'v1', '7,8,9,10'); // 10 numbers: b goes first
    expect([...cache.held(['a', 'b', 'c']).keys()]).toEqual(['a', 'c']);
    cache.put('a', 'v2', '');
    expect(cache.held(['a']).get('a')).toEqual({ version: 'v2', ms: new Float64Array(0) });
    expect(cache.size).toBe(2);
  });
});

describe('the availability statement and the cache', () => {
  let tdb: TestDatabase;
  let userId: string;
  const from = Date.UTC(2031, 0, 6);
  const to = from + 86_400_000;
  const busyOf = async () => (await loadHostSchedules(tdb.db, { hostIds: [userId], from, to }))[0].busy.map((b) => [b.start, b.end]);
  const setBusy = (pairs: number[][]) =>
    tdb.db.raw(
      `INSERT INTO calendar_user_busy (user_id, busy, busy_ms, updated_at) VALUES (?, '{}', ?, now())
       ON CONFLICT (user_id) DO UPDATE SET busy_ms = EXCLUDED.busy_ms, updated_at = EXCLUDED.updated_at`,
      [userId, pairs.flat().join(',')],
    );

  beforeAll(async () => {
    tdb = await createTestDatabase();
    ({ userId } = await createTestTeam(tdb.db));
  });
  afterAll(async () => {
    await tdb?.drop();
  });

  it("reads a host's list once, and again only when a change to the row gave it a new version", async () => {
    await setBusy([
      [from + 3_600_000, from + 7_200_000],
      [from + 10 * 3_600_000, from + 11 * 3_600_000],
    ]);
    expect(await busyOf()).toEqual([
      [from + 3_600_000, from + 7_200_000],
      [from + 10 * 3_600_000, from + 11 * 3_600_000],
    ]);
    // The version held is not sent again: what the process holds for it is what the lookup uses.
    const held = busyCache.held([userId]).get(userId)!;
    busyCache.put(userId, held.version, `${from + 5 * 3_600_000},${from + 6 * 3_600_000}`);
    expect(await busyOf()).toEqual([[from + 5 * 3_600_000, from + 6 * 3_600_000]]);
    // A sync rewrites the row: a new version, read again.
    await setBusy([[from + 2 * 3_600_000, from + 4 * 3_600_000]]);
    expect(await busyOf()).toEqual([[from + 2 * 3_600_000, from + 4 * 3_600_000]]);
    expect(busyCache.held([userId]).get(userId)!.version).not.toBe(held.version);
  });
});
