// The instant arguments of reads (`asOf`, `from`, `to`): the forms Hudi's formatQueryInstant accepts,
// normalised to 17-digit instant times, anything else refused.
import { LakeletError } from '../../errors.js';

/** `yyyy-MM-dd` or `yyyy-MM-dd HH:mm:ss[.SSS]` (Hudi's query-instant date forms, read in UTC). */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}))?)?$/;

/** True when the 17 digits are a real UTC date and time (the zero date of Hudi's special instants passes). */
function isValidInstant(digits: string): boolean {
  if (digits.startsWith('00000000')) return true; // 00000000000000 (init), 00000000000001 (bootstrap), …
  const [y, mo, d, h, mi, sec] = [0, 4, 6, 8, 10, 12].map((at, i) => Number(digits.slice(at, at + (i === 0 ? 4 : 2))));
  const days = new Date(Date.UTC(y as number, mo as number, 0)).getUTCDate(); // days in that month
  return (mo as number) >= 1 && (mo as number) <= 12 && (d as number) >= 1 && (d as number) <= days && (h as number) < 24 && (mi as number) < 60 && (sec as number) < 60;
}

/**
 * Normalise an instant argument to 17 digits, accepting what Hudi's `formatQueryInstant` does: an instant time of
 * 14 (`yyyyMMddHHmmss`) or 17 (`…SSS`) digits, `yyyy-MM-dd`, `yyyy-MM-dd HH:mm:ss[.SSS]` (UTC, lakelet's
 * timeline zone), plus `yyyyMMdd` (a day's start) and a Date (UTC). Any other text, including digit strings of
 * other lengths and impossible dates, is `INVALID_ARGUMENT`: nothing is padded into a different instant.
 */
export function normalizeInstant(value: string | Date, what: string): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new LakeletError('INVALID_ARGUMENT', `query: ${what} is an invalid Date`, { field: what });
    const iso = value.toISOString();
    return iso.slice(0, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16) + iso.slice(17, 19) + iso.slice(20, 23);
  }
  const s = String(value).trim();
  let digits: string | undefined;
  if (/^(\d{8}|\d{14}|\d{17})$/.test(s)) digits = s.padEnd(17, '0');
  else {
    const m = ISO_INSTANT.exec(s);
    if (m) digits = m.slice(1, 7).map((x) => x ?? '00').join('') + (m[7] ?? '000');
  }
  if (digits === undefined || !isValidInstant(digits)) {
    throw new LakeletError('INVALID_ARGUMENT', `query: ${what} ${JSON.stringify(value)} is not an instant time (yyyyMMddHHmmss[SSS], yyyyMMdd, yyyy-MM-dd or yyyy-MM-dd HH:mm:ss[.SSS])`, { field: what, value });
  }
  return digits;
}
