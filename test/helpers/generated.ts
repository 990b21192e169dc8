import fc from 'fast-check';

/**
 * `mine` and `reference` give the same answer on texts made of up to `maxLength` of `pieces`, in any
 * order: how a hand-written reading is held to the expression it replaced.
 */
export function agreeOnGenerated<T>(
  pieces: fc.Arbitrary<string>,
  mine: (text: string) => T,
  reference: (text: string) => T,
  { maxLength = 30, numRuns = 10000 }: { maxLength?: number; numRuns?: number } = {},
): void {
  fc.assert(
    fc.property(fc.array(pieces, { maxLength }), (parts) => {
      const text = parts.join('');
      expect(mine(text)).toEqual(reference(text));
    }),
    { numRuns },
  );
}
