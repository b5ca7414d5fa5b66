// Decimal comparisons (compareValues, and through it row filters and ordering values): the double fast path for
// short plain decimal strings orders exactly as the digits do. Checked against an exact BigInt oracle on random
// decimals of up to 15 characters (neighbours one unit in the last place apart, signs, zeros, mixed scales), on
// long ones (the exact path) and through compiled `>`/`=` filters.
import { describe, expect, test } from 'vitest';
import { compileFilters, matchValue } from '../../src/expr/filter.js';
import { compareValues } from '../../src/schema/compare.js';

/** Exact order of two plain decimal strings, by scaled BigInts. */
function oracle(a: string, b: string): number {
  const parts = (s: string) => {
    const neg = s.startsWith('-');
    const [int, frac = ''] = (neg ? s.slice(1) : s).split('.');
    return { neg, int: int as string, frac };
  };
  const x = parts(a);
  const y = parts(b);
  const scale = Math.max(x.frac.length, y.frac.length);
  const v = (p: { neg: boolean; int: string; frac: string }) => (p.neg ? -1n : 1n) * BigInt(p.int + p.frac.padEnd(scale, '0'));
  const d = v(x) - v(y);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** A seeded xorshift: reproducible random decimals. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

function randomDecimal(r: () => number, maxChars: number): string {
  const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(r() * 10))).join('');
  const neg = r() < 0.3;
  const budget = maxChars - (neg ? 1 : 0);
  const intLen = 1 + Math.floor(r() * Math.min(budget, 15));
  const fracLen = r() < 0.3 || budget - intLen < 2 ? 0 : 1 + Math.floor(r() * (budget - intLen - 1));
  return `${neg ? '-' : ''}${r() < 0.2 ? '0' : digits(intLen)}${fracLen ? `.${digits(fracLen)}` : ''}`;
}

/** `s` plus or minus one unit in its last digit (same length when no carry runs off). */
function neighbour(s: string, up: boolean): string {
  const neg = s.startsWith('-');
  const [int, frac = ''] = (neg ? s.slice(1) : s).split('.');
  const scale = frac.length;
  let v = BigInt((int as string) + frac) * (neg ? -1n : 1n) + (up ? 1n : -1n);
  const sign = v < 0n ? '-' : '';
  if (v < 0n) v = -v;
  const t = v.toString().padStart(scale + 1, '0');
  return `${sign}${scale ? `${t.slice(0, -scale)}.${t.slice(-scale)}` : t}`;
}

describe('decimal comparison', () => {
  test('short decimals (the double path) order as their digits: random pairs and one-ulp neighbours', () => {
    const r = rng(20261203);
    for (let i = 0; i < 20_000; i++) {
      const a = randomDecimal(r, 15);
      const pairs = [randomDecimal(r, 15), neighbour(a, true), neighbour(a, false), `${a}${a.includes('.') ? '0' : '.0'}`];
      for (const b of pairs) expect(compareValues('decimal', 2, a, b), `${a} vs ${b}`).toBe(oracle(a, b));
    }
  });

  test('edge values: zeros and signs, 15 digits, the exact path past 15 characters', () => {
    const cases: [string, string][] = [
      ['0', '-0'], ['-0.00', '0'], ['0.1', '0.10'], ['123456789012345', '123456789012346'], ['99999999999999.9', '99999999999999.8'],
      ['0.00000000000001', '0.00000000000002'], ['-999999999999999', '-999999999999998'], ['1234567890123456789.01', '1234567890123456789.02'],
      ['9007199254740993', '9007199254740992'], ['-0.0000000000000001', '0'],
    ];
    for (const [a, b] of cases) {
      expect(compareValues('decimal', 2, a, b), `${a} vs ${b}`).toBe(oracle(a, b));
      expect(compareValues('decimal', 2, b, a), `${b} vs ${a}`).toBe(oracle(b, a));
    }
  });

  test('a number on either side compares at the larger scale', () => {
    expect(compareValues('decimal', 0, '1.5', 1.25)).toBe(1);
    expect(compareValues('decimal', 0, 1.25, '1.5')).toBe(-1);
    expect(compareValues('decimal', 0, '1.25', 1.25)).toBe(0);
    expect(compareValues('decimal', 2, '1234567890123456.5', 1.25)).toBe(1);
  });

  test('compiled filter bounds (short and long) agree with the oracle', () => {
    const r = rng(7);
    const kindOf = () => ({ kind: 'decimal' as const, scale: 2 });
    for (let i = 0; i < 2_000; i++) {
      const bound = randomDecimal(r, i % 2 ? 15 : 22);
      const [gt, eq] = compileFilters([['fare', '>', bound], ['fare', '=', bound]], kindOf) as [Parameters<typeof matchValue>[0], Parameters<typeof matchValue>[0]];
      for (const v of [randomDecimal(r, 15), neighbour(bound, true), neighbour(bound, false), bound, randomDecimal(r, 20)]) {
        expect(matchValue(gt, v), `${v} > ${bound}`).toBe(oracle(v, bound) > 0);
        expect(matchValue(eq, v), `${v} = ${bound}`).toBe(oracle(v, bound) === 0);
      }
    }
  });
});
