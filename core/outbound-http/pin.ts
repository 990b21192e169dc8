import type { LookupFunction } from 'node:net';

/** A lookup that always answers the pinned address: DNS rebinding between check and connect is impossible. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (opts?.all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  }) as unknown as LookupFunction;
}
