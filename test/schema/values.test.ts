// Decimal conversion: the fast path for short byte strings gives exactly what the BigInt path gives.
import { expect, test } from 'vitest';
import { bigIntFromTwosComplement, decimalFromBytes, formatDecimal } from '../../src/schema/values.js';
import { Random } from '../helpers/random.js';

test('decimalFromBytes equals formatDecimal(bigIntFromTwosComplement) for every length and sign', () => {
  const rnd = new Random(7);
  for (let i = 0; i < 5000; i++) {
    const len = 1 + rnd.int(16);
    const bytes = new Uint8Array(Array.from({ length: len }, () => rnd.int(256)));
    const scale = rnd.int(12) - 1;
    expect(decimalFromBytes(bytes, scale)).toBe(formatDecimal(bigIntFromTwosComplement(bytes), scale));
  }
  expect(decimalFromBytes(new Uint8Array([0xff, 0xff]), 2)).toBe('-0.01');
  expect(decimalFromBytes(new Uint8Array([0x1d, 0x4c]), 2)).toBe('75.00');
  expect(decimalFromBytes(new Uint8Array([0x80, 0, 0, 0, 0, 0]), 0)).toBe('-140737488355328');
});
