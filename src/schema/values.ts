// Lakelet's value model: how every Hudi/Avro/parquet value appears in rows, whichever file it came from.
// null → null; boolean; int/float/double → number; long → bigint; string/enum/uuid → string;
// bytes/fixed → Uint8Array; decimal → string with exactly `scale` fraction digits; date and timestamps → Date;
// time-millis → number; time-micros → bigint; record → object; array → array; map → object.
import { MicrosDate } from './timestamp-micros.js';

/** Format an unscaled decimal integer with exactly `scale` fraction digits: `(7500n, 2)` → `"75.00"`. */
export function formatDecimal(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  let digits = (negative ? -unscaled : unscaled).toString();
  if (scale <= 0) return (negative ? '-' : '') + digits + (scale < 0 ? '0'.repeat(-scale) : '');
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  const cut = digits.length - scale;
  return `${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}

/** Read a big-endian two's-complement integer (Avro/parquet decimal bytes). */
export function bigIntFromTwosComplement(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n;
  let value = 0n;
  for (const b of bytes) value = (value << 8n) | BigInt(b);
  if ((bytes[0] ?? 0) & 0x80) value -= 1n << BigInt(bytes.length * 8);
  return value;
}

/** Decimal bytes (big-endian two's complement) → decimal string with `scale` fraction digits. */
export function decimalFromBytes(bytes: Uint8Array, scale: number): string {
  if (bytes.length > 0 && bytes.length <= 6) {
    // Up to 48 bits: exact in a double, and much cheaper than a BigInt.
    let v = 0;
    for (const b of bytes) v = v * 256 + b;
    if ((bytes[0] as number) & 0x80) v -= 2 ** (bytes.length * 8);
    return formatScaled(v, scale);
  }
  return formatDecimal(bigIntFromTwosComplement(bytes), scale);
}

/** {@link formatDecimal} for a safe-integer unscaled value. */
function formatScaled(unscaled: number, scale: number): string {
  const negative = unscaled < 0;
  let digits = String(negative ? -unscaled : unscaled);
  if (scale <= 0) return (negative ? '-' : '') + digits + (scale < 0 ? '0'.repeat(-scale) : '');
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  const cut = digits.length - scale;
  return `${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}

/** Days since the epoch → a Date at UTC midnight. */
export function dateFromDays(days: number): Date {
  return new Date(days * 86_400_000);
}

/**
 * Epoch microseconds → a Date: a plain one for whole milliseconds, else a {@link MicrosDate} that keeps the
 * microseconds exactly (its Date value is the millisecond they fall in).
 */
export function dateFromMicros(micros: bigint): Date {
  return micros % 1000n === 0n ? new Date(Number(micros / 1000n)) : new MicrosDate(micros);
}

/** Epoch milliseconds → Date. */
export function dateFromMillis(millis: bigint | number): Date {
  return new Date(Number(millis));
}
