/** Spec defaults for a lookup without an event type (interface-spec "Limits"): minutes, and days ahead. */
export const DEFAULTS = { duration: 30, increment: 15, bufferBefore: 0, bufferAfter: 0, minNotice: 60, maxDays: 14 };
