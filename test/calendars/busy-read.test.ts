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
});
