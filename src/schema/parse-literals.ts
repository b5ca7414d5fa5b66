// User literals parsed for row validation: decimals (string, number or bigint) into canonical text with the
// column's scale, and ISO-8601 date and date-time strings into Dates (microseconds kept).
import { fractionMicros, MicrosDate } from './timestamp-micros.js';
import { formatDecimal } from './values.js';

/** Canonical decimal text with exactly `scale` digits, or a reason why the value does not fit. */
export function decimalValue(value: unknown, precision: number, scale: number): string | { reason: string } {
  let text: string;
  if (typeof value === 'string') text = value.trim();
  else if (typeof value === 'bigint') text = value.toString();
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { reason: '' };
    text = expandExponent(String(value));
  } else return { reason: '' };
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (m === null || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) return { reason: '' };
  const intPart = (m[2] ?? '').replace(/^0+/, '');
  let frac = m[3] ?? '';
  if (frac.length > scale) {
    if (/[^0]/.test(frac.slice(scale))) return { reason: ` (more than ${scale} fraction digits)` };
    frac = frac.slice(0, scale);
  }
  if (intPart.length + scale > precision) return { reason: ` (more than ${precision - scale} integer digits for precision ${precision})` };
  const unscaled = BigInt((intPart || '0') + frac.padEnd(scale, '0'));
  return formatDecimal(m[1] === '-' ? -unscaled : unscaled, scale);
}

/** `1e-7` → `0.0000001`, `1.5e+21` → `1500000000000000000000` (JS number text without exponent). */
function expandExponent(text: string): string {
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (m === null) return text;
  const digits = (m[2] as string) + (m[3] ?? '');
  const point = 1 + Number(m[4]);
  if (point <= 0) return `${m[1]}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return m[1] + digits.padEnd(point, '0');
  return `${m[1]}${digits.slice(0, point)}.${digits.slice(point)}`;
}

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** An ISO-8601 date or date-time string as a Date (no zone = UTC), or undefined when it is not one. */
export function parseIsoString(text: string): Date | undefined {
  const m = ISO_RE.exec(text.trim());
  if (m === null) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), month - 1, day);
  if (date.getUTCDate() !== day) return undefined;
  date.setUTCHours(Number(h), Number(mi), Number(s), Number(frac.padEnd(3, '0').slice(0, 3)));
  let ms = date.getTime();
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const zm = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
    if (zm === null) return undefined;
    ms -= (Number(zm[2]) * 60 + Number(zm[3])) * 60_000 * (zm[1] === '-' ? -1 : 1);
  }
  // More than three fraction digits: keep the microseconds (digits past the sixth are dropped).
  const extra = fractionMicros(frac);
  return extra === 0 ? new Date(ms) : new MicrosDate(BigInt(ms) * 1000n + BigInt(extra));
}
