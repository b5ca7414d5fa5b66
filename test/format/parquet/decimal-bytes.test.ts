// decimalBytes (the base-file writer's decimal conversion): byte for byte what twosComplement(decimalUnscaled(...))
// gives — the double path for short plain strings and the BigInt path for the rest — on random decimals of every
// size and sign, leading zeros, other scales and spellings, and the same errors for values that do not fit.
import { describe, expect, test } from 'vitest';
import { decimalBytes, decimalUnscaled, twosComplement } from '../../../src/format/parquet/physical-values.js';
import { randomBytes } from '../compress/inputs.js';

function reference(v: unknown, precision: number, scale: number, size: number | undefined): Uint8Array | string {
  try {
    return twosComplement(decimalUnscaled(v, precision, scale, 'd'), size);
  } catch (err) {
    return (err as Error).message;
  }
}
function actual(v: unknown, precision: number, scale: number, size: number | undefined): Uint8Array | string {
  try {
    return decimalBytes(v, precision, scale, size, 'd');
  } catch (err) {
    return (err as Error).message;
  }
}

describe('decimalBytes', () => {
  test('random decimals: the same bytes and errors as the exact BigInt conversion', () => {
    const noise = randomBytes(200_000, 77);
    let at = 0;
    const next = () => noise[at++ % noise.length] as number;
    for (let i = 0; i < 20_000; i++) {
      const scale = next() % 5;
      const intDigits = 1 + (next() % 17);
      const digits = (n: number) => Array.from({ length: n }, () => String(next() % 10)).join('');
      const fracLen = next() % 4 === 0 ? (next() % 7) : scale; // mostly the column's scale, sometimes not
      const text = `${next() % 3 === 0 ? '-' : ''}${digits(intDigits)}${fracLen ? `.${digits(fracLen)}` : ''}`;
      const precision = 1 + (next() % 20);
      for (const size of [undefined, 3, 5, 8, 12]) {
        expect(actual(text, precision, scale, size), `${text} (${precision},${scale}) size ${size}`).toEqual(reference(text, precision, scale, size));
      }
    }
  });

  test('edge spellings and values', () => {
    const cases: unknown[] = ['0.00', '-0.00', '00012.50', '+12.50', ' 12.50', '12.5', '12.500', '.50', '12.', '99999999999.99', '-99999999999.99',
      '140737488355.27', '-140737488355.28', '999999999999.99', 12.5, -3, 'abc', '', '1e3'];
    for (const v of cases) {
      for (const [precision, scale] of [[10, 2], [14, 2], [16, 2], [3, 2]] as const) {
        for (const size of [undefined, 1, 5, 7, 16]) expect(actual(v, precision, scale, size), `${String(v)} (${precision},${scale}) ${size}`).toEqual(reference(v, precision, scale, size));
      }
    }
  });
});
