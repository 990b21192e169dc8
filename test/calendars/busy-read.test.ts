import { overlapping } from '../../services/calendars/busy-read';

/** The slot engine's read of a host's merged busy time: only the intervals overlapping [lo, hi). */
describe('overlapping', () => {
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

  it('reads 13-digit epoch milliseconds in place, with the same answers as a full scan', () => {
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
    // The same intervals shifted below 13 digits fall back to the full parse, with the same answers.
    expect(overlapping('10,20,30,40', 15, 35).map((b) => [b.start, b.end])).toEqual([
      [10, 20],
      [30, 40],
    ]);
  });
});
