// Time zones for the timestamp key generator: UTC, fixed offsets and IANA zones (through Intl), each able to give
// its offset at a UTC instant and to turn a local wall-clock time into a UTC instant.
import { LakeletError } from '../errors.js';

/** A time zone: its id and its offset from UTC (milliseconds) at an instant / for a local wall time. */
export interface TimeZone {
  readonly id: string;
  /** Offset in milliseconds at the UTC instant `utcMs`. */
  offsetAt(utcMs: number): number;
  /** The UTC instant of the local wall-clock time `localMs` (local time written as if it were UTC). */
  localToUtc(localMs: number): number;
}

/** UTC. */
export const UTC_ZONE: TimeZone = fixedOffsetZone(0);

/** A zone with a constant offset (milliseconds); its id is `UTC` or `+hh:mm`. */
export function fixedOffsetZone(offsetMs: number): TimeZone {
  const id = offsetMs === 0 ? 'UTC' : formatOffset(offsetMs, true);
  return { id, offsetAt: () => offsetMs, localToUtc: (local) => local - offsetMs };
}

const OFFSET_RE = /^(?:GMT|UTC|UT)?([+-])(\d{1,2})(?::?(\d{2}))?$/i;
const zoneCache = new Map<string, TimeZone>();

/**
 * Resolve a time zone id: `UTC`, `GMT`, `Z`, fixed offsets (`+05:30`, `-0800`, `GMT+05:30`, `UTC-3`) and IANA
 * names (`Asia/Kolkata`, through `Intl`). Unknown ids → `INVALID_ARGUMENT` (Java would silently use GMT).
 */
export function parseTimeZone(id: string): TimeZone {
  const trimmed = id.trim();
  const cached = zoneCache.get(trimmed);
  if (cached !== undefined) return cached;
  let zone: TimeZone;
  const upper = trimmed.toUpperCase();
  const m = OFFSET_RE.exec(trimmed);
  if (upper === 'UTC' || upper === 'GMT' || upper === 'Z' || upper === 'UT' || upper === 'ETC/UTC' || upper === 'ETC/GMT') {
    zone = UTC_ZONE;
  } else if (m !== null) {
    const hours = Number(m[2]);
    const minutes = Number(m[3] ?? '0');
    if (hours > 18 || minutes > 59) throw new LakeletError('INVALID_ARGUMENT', `keygen: time zone offset ${JSON.stringify(id)} is out of range`, { value: id });
    const ms = (hours * 60 + minutes) * 60_000 * (m[1] === '-' ? -1 : 1);
    zone = fixedOffsetZone(ms);
  } else {
    zone = intlZone(trimmed);
  }
  zoneCache.set(trimmed, zone);
  return zone;
}

function intlZone(id: string): TimeZone {
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: id, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
  } catch (err) {
    throw new LakeletError('INVALID_ARGUMENT', `keygen: unknown time zone ${JSON.stringify(id)}`, { value: id }, { cause: err });
  }
  const offsetAt = (utcMs: number): number => {
    const whole = Math.floor(utcMs / 1000) * 1000;
    const parts: Record<string, string> = {};
    for (const p of fmt.formatToParts(new Date(whole))) parts[p.type] = p.value;
    let year = Number(parts.year);
    if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
    const local = new Date(0);
    local.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
    local.setUTCHours(Number(parts.hour) % 24, Number(parts.minute), Number(parts.second), 0);
    return local.getTime() - whole;
  };
  const localToUtc = (localMs: number): number => {
    const first = localMs - offsetAt(localMs);
    const second = localMs - offsetAt(first);
    return offsetAt(second) === localMs - second ? second : first;
  };
  return { id: fmt.resolvedOptions().timeZone, offsetAt, localToUtc };
}

/** `+0530` / `+05:30` (or `-0800`) for an offset in milliseconds. */
export function formatOffset(offsetMs: number, colon: boolean): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const total = Math.floor(Math.abs(offsetMs) / 60_000);
  const hh = String(Math.floor(total / 60)).padStart(2, '0');
  const mm = String(total % 60).padStart(2, '0');
  return `${sign}${hh}${colon ? ':' : ''}${mm}`;
}
