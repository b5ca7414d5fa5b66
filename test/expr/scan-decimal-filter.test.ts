// The decimal fast path of row filters (expr/decimal-compare.ts) equals the general compareValues on every pair of
// a grid of decimal strings (signs, zeros, leading/trailing zeros, scales) and filter bounds, for every operator.
import { describe, expect, it } from 'vitest';
import { compileFilters, matchValue, type CompiledFilter } from '../../src/expr/filter.js';
import { compareDecimalString } from '../../src/expr/decimal-compare.js';
import { compareValues } from '../../src/schema/compare.js';

const VALUES = ['0', '-0', '0.00', '-0.00', '1', '-1', '1.5', '1.50', '01.5', '-1.5', '-1.49', '12.34', '12.3', '12.345',
  '9.99', '10', '10.00', '100', '-100.01', '0.05', '0.5', '.5', '-.5', '5.', '50', '50.00', '50.01', '49.99', '-50'];
const BOUNDS = ['0', '-0', '1.5', '-1.5', '12.34', '10', '50', '-50', '0.5', '.5', '49.999', '100.0', '0.050'];
const OPS = ['=', '!=', '<', '<=', '>', '>='] as const;

describe('decimal row filter fast path', () => {
  it('compares like compareValues on every pair', () => {
    let checked = 0;
    for (const b of BOUNDS) {
      const [f] = compileFilters([['fare', '=', b]], () => ({ kind: 'decimal', scale: 2 }));
      for (const a of VALUES) {
        const fast = compareDecimalString(a, f.values[0]);
        expect(fast, `${a} vs ${b}`).not.toBeUndefined();
        expect(Math.sign(fast!), `${a} vs ${b}`).toBe(Math.sign(compareValues('decimal', 2, a, f.values[0])!));
        checked++;
      }
    }
    expect(checked).toBe(VALUES.length * BOUNDS.length);
  });

  it('orders by value, not by text', () => {
    const [f] = compileFilters([['fare', '>', '9.5']], () => ({ kind: 'decimal', scale: 2 }));
    expect(matchValue(f, '10.00')).toBe(true);
    expect(matchValue(f, '9.49')).toBe(false);
    expect(matchValue(f, '-10')).toBe(false);
    expect(matchValue(f, null)).toBe(false);
  });

  it('falls back for anything but a plain decimal string, with the same answers', () => {
    expect(compareDecimalString('1e3', { sign: 1n, int: '1', frac: '' })).toBeUndefined();
    expect(compareDecimalString('-', { sign: 1n, int: '1', frac: '' })).toBeUndefined();
    expect(compareDecimalString(12, { sign: 1n, int: '1', frac: '' })).toBeUndefined();
    for (const op of OPS) {
      const [f]: CompiledFilter[] = compileFilters([['fare', op, '50']], () => ({ kind: 'decimal', scale: 2 }));
      for (const a of [...VALUES, 49.5, 50, 51]) {
        const slow = compareValues('decimal', 2, a, f.values[0]);
        const want = slow !== undefined && { '=': slow === 0, '!=': slow !== 0, '<': slow < 0, '<=': slow <= 0, '>': slow > 0, '>=': slow >= 0 }[op];
        expect(matchValue(f, a), `${a} ${op} 50`).toBe(want);
      }
    }
  });
});
