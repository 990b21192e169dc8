/**
 * Pure scheduling slot engine (no I/O, no clock: `now` is injected).
 *
 * Decisions (the contract in one place):
 *
 * - Working time is wall-clock based. An instant is working time for a host iff its local
 *   wall-clock time in the host schedule's timezone lies in a window of its local calendar date.
 *   A date's windows are its date overrides when it has any (they REPLACE the weekly rules of
 *   that date; an `is_unavailable` override blocks the whole date even if other overrides for the
 *   date give hours; an override without start/end contributes no hours), otherwise the enabled
 *   weekly rules for its weekday. Rules never span midnight (end <= start is empty; "24:00" is
 *   the end of the day). So a 09:00-17:00 rule is 09:00-17:00 local on DST days as well; a
 *   00:00-24:00 rule is 23 h / 25 h long on spring-forward / fall-back days.
 *   Touching or overlapping working time (two rules 09-12 and 12-17, or two full days in a row)
 *   is merged into one working interval; a slot must lie completely inside one such interval.
 *
 * - Alignment: slot starts are aligned on the local wall clock of hosts[0]'s timezone (the host
 *   whose timezone the event is laid out in; one grid for every mode so that group/round-robin
 *   hosts can share a start): minutes since local midnight divisible by `incrementMinutes`, with
 *   zero seconds. It is NOT measured from the start of the working interval (a 09:10-17:00 day
 *   with a 30-minute increment offers 09:30, 10:00, ...). Each local wall-clock time gives at
 *   most one start: a time inside a spring-forward gap does not exist and is skipped; a time
 *   repeated by a fall-back resolves to its FIRST (earlier, pre-transition) occurrence, so the
 *   second occurrence of e.g. 01:30 is not a start (isSlotOffered reports it as off_increment).
 *
 * - Buffers (Cal.com rule: the new meeting's buffers and the existing meetings' buffers both
 *   apply, existing meetings being assumed to carry the same buffers as the event type queried):
 *   a slot conflicts with a raw busy interval iff
 *       slot.start - bufferBefore < busy.end + bufferAfter
 *   AND busy.start - bufferBefore < slot.end + bufferAfter,
 *   i.e. at least bufferBefore + bufferAfter minutes must separate the slot from any busy time
 *   on both sides. Buffers may extend outside working hours (only the meeting itself must be
 *   inside working time).
 *
 * - A slot [start, start + duration) is offered when: start is on the grid above,
 *   rangeStart <= start < rangeEnd, start >= now + minNotice, start <= now + maxBookingDays * 24h,
 *   and the host condition holds: one_on_one uses hosts[0] only; round_robin needs ANY host free
 *   (hostIds lists the free ones); group needs EVERY host free.
 *
 * - Empty host list -> [] / not offered. Unknown timezone -> throws Error('invalid timezone: X').
 *
 * - Performance: busy intervals are sorted once per host and query, candidates and working
 *   intervals are swept with two pointers (O((C + W + B) + B log B) per host); timezone offsets are
 *   memoised per zone and day.
 */
export * from './types';
export { computeSlots, isSlotOffered } from './engine';
export { parseTimeOfDay } from './working';
