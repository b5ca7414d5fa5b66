// Exact comparison of a decimal string (as rows carry decimals) with a compiled decimal filter value, on the digit
// strings: no regex, no BigInt per row. Anything but a plain `-?digits[.digits]` string returns undefined, and the
// caller falls back to compareValues.

/** A compiled decimal filter value (see filter.ts coerce). */
interface DecimalBound { sign: bigint; int: string; frac: string }

interface Normal { neg: boolean; int: string; frac: string }

const bounds = new WeakMap<object, Normal>();

function trimInt(s: string): string {
  let i = 0;
  while (i < s.length && s.charCodeAt(i) === 48) i++;
  return s.slice(i);
}

function trimFrac(s: string): string {
  let j = s.length;
  while (j > 0 && s.charCodeAt(j - 1) === 48) j--;
  return s.slice(0, j);
}

function normalBound(b: DecimalBound): Normal {
  let n = bounds.get(b);
  if (!n) {
    const int = trimInt(b.int);
    const frac = trimFrac(b.frac);
    n = { neg: b.sign < 0n && (int !== '' || frac !== ''), int, frac };
    bounds.set(b, n);
  }
  return n;
}

/** Parse a plain decimal string, or undefined when it is not one. */
function normalString(a: string): Normal | undefined {
  const start = a.charCodeAt(0) === 45 ? 1 : 0;
  let dot = -1;
  let digits = 0;
  for (let i = start; i < a.length; i++) {
    const c = a.charCodeAt(i);
    if (c === 46 && dot < 0) dot = i;
    else if (c >= 48 && c <= 57) digits++;
    else return undefined;
  }
  if (digits === 0) return undefined;
  const int = trimInt(dot < 0 ? a.slice(start) : a.slice(start, dot));
  const frac = dot < 0 ? '' : trimFrac(a.slice(dot + 1));
  return { neg: start === 1 && (int !== '' || frac !== ''), int, frac };
}

function compareMagnitude(x: Normal, y: Normal): number {
  if (x.int.length !== y.int.length) return x.int.length < y.int.length ? -1 : 1;
  if (x.int !== y.int) return x.int < y.int ? -1 : 1;
  if (x.frac !== y.frac) return x.frac < y.frac ? -1 : 1;
  return 0;
}

/**
 * Compare decimal string `a` with compiled decimal bound `b`: negative, zero, positive; undefined when `a` is not
 * a plain decimal string or `b` not a compiled bound (the caller then uses compareValues).
 */
export function compareDecimalString(a: unknown, b: unknown): number | undefined {
  if (typeof a !== 'string' || typeof b !== 'object' || b === null || !('frac' in b)) return undefined;
  const x = normalString(a);
  if (!x) return undefined;
  const y = normalBound(b as DecimalBound);
  if (x.neg !== y.neg) return x.neg ? -1 : 1;
  const m = compareMagnitude(x, y);
  return x.neg && m !== 0 ? -m : m;
}
