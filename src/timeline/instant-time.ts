// Instant-time generation: Hudi's `yyyyMMddHHmmssSSS` strings from a clock (lakelet always uses UTC, and
// writes `hoodie.table.timeline.timezone=UTC`), strictly increasing, and their parsing back into dates.
import { LakeletError } from '../errors.js';

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/**
 * Format a date as a 17-digit Hudi instant time `yyyyMMddHHmmssSSS` in UTC. Years outside 0..9999 or an
 * invalid date → `INVALID_ARGUMENT`.
 */
export function formatInstantTime(date: Date): string {
  const ms = date.getTime();
  const year = date.getUTCFullYear();
  if (Number.isNaN(ms) || year < 0 || year > 9999) {
    throw new LakeletError('INVALID_ARGUMENT', `instant time: cannot format date ${String(date)}`, { value: date });
  }
  return (
    pad(year, 4) +
    pad(date.getUTCMonth() + 1, 2) +
    pad(date.getUTCDate(), 2) +
    pad(date.getUTCHours(), 2) +
    pad(date.getUTCMinutes(), 2) +
    pad(date.getUTCSeconds(), 2) +
    pad(date.getUTCMilliseconds(), 3)
  );
}

/**
 * Parse an instant time (17 digits `yyyyMMddHHmmssSSS`, or the legacy 14 digits `yyyyMMddHHmmss`) as a UTC
 * date. Anything else, or digits that do not name a real calendar time (month 13, Feb 30, …) →
 * `INVALID_ARGUMENT`.
 */
export function parseInstantTime(text: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{3})?$/.exec(text);
  if (m === null) {
    throw new LakeletError('INVALID_ARGUMENT', `instant time: ${JSON.stringify(text)} is not yyyyMMddHHmmss[SSS]`, { value: text });
  }
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const millis = m[7] === undefined ? 0 : Number(m[7]);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  const roundTrips =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  if (!roundTrips) {
    throw new LakeletError('INVALID_ARGUMENT', `instant time: ${JSON.stringify(text)} is not a valid calendar time`, { value: text });
  }
  return date;
}

/**
 * A fresh instant time for `now` that is strictly greater than `previous` (the latest instant on the
 * timeline, any state): when the clock is not ahead of `previous` — same millisecond, or a clock that went
 * backwards — the result is `previous` plus one millisecond. `previous` may be 14 or 17 digits (a
 * 14-digit time counts as its millisecond 000).
 */
export function nextInstantTime(previous: string | undefined, now: Date = new Date()): string {
  const candidate = formatInstantTime(now);
  if (previous === undefined) return candidate;
  const prev = previous.length === 14 ? `${previous}000` : previous;
  if (!/^\d{17}$/.test(prev)) {
    throw new LakeletError('INVALID_ARGUMENT', `instant time: previous instant ${JSON.stringify(previous)} is not yyyyMMddHHmmss[SSS]`, { value: previous });
  }
  if (candidate > prev) return candidate;
  return formatInstantTime(new Date(parseInstantTime(prev).getTime() + 1));
}
