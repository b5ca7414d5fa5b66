// Decimal column statistics: min/max of two's-complement values as signed integers, on doubles when every value
// has at most 6 bytes and on BigInts otherwise — both checked against a BigInt oracle on random values of every
// length 0..9 (signs, zero, the 6/7-byte edge), for FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY decimals.
import type { SchemaElement } from 'hyparquet';
import { describe, expect, test } from 'vitest';
import { chunkStatistics } from '../../../src/format/parquet/encode/statistics.js';
import { twosComplement } from '../../../src/format/parquet/physical-values.js';
import { bigIntFromTwosComplement } from '../../../src/schema/values.js';
import { randomBytes } from '../compress/inputs.js';

const fixed = (size: number): SchemaElement => ({ name: 'd', type: 'FIXED_LEN_BYTE_ARRAY', type_length: size, converted_type: 'DECIMAL', precision: 10, scale: 2 });
const binary: SchemaElement = { name: 'd', type: 'BYTE_ARRAY', converted_type: 'DECIMAL', precision: 38, scale: 2 };

function oracle(values: Uint8Array[]): [bigint, bigint] {
  const vs = values.map(bigIntFromTwosComplement);
  return [vs.reduce((a, b) => (b < a ? b : a)), vs.reduce((a, b) => (b > a ? b : a))];
}

describe('decimal statistics', () => {
  test('fixed-size decimals of 1-9 bytes: min and max are the signed extremes', () => {
    for (let size = 1; size <= 9; size++) {
      for (let seed = 1; seed <= 20; seed++) {
        const noise = randomBytes(size * 50, seed * 31 + size);
        const values = Array.from({ length: 50 }, (_, i) => noise.slice(i * size, (i + 1) * size));
        if (seed === 1) values.push(new Uint8Array(size).fill(0x80, 0, 1), new Uint8Array(size).fill(0x7f, 0, 1).fill(0xff, 1)); // the extremes
        const [min, max] = oracle(values);
        const stats = chunkStatistics(fixed(size), undefined, values, 0, values.length, 0);
        expect(stats.min, `size ${size} seed ${seed}`).toEqual(twosComplement(min, size));
        expect(stats.max, `size ${size} seed ${seed}`).toEqual(twosComplement(max, size));
      }
    }
  });

  test('variable-length decimals mixing short and long values use one order; a zero bound keeps no min/max', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const noise = randomBytes(400, seed);
      const values = Array.from({ length: 30 }, (_, i) => {
        const len = 1 + ((noise[i] ?? 0) % (seed % 2 ? 6 : 9)); // odd seeds: all <= 6 bytes
        return noise.slice(100 + i * 9, 100 + i * 9 + len);
      });
      const [min, max] = oracle(values);
      const stats = chunkStatistics(binary, undefined, values, 0, values.length, 0);
      if (min === 0n || max === 0n) {
        expect(stats.min).toBeUndefined();
        continue;
      }
      expect(stats.min, `seed ${seed}`).toEqual(twosComplement(min));
      expect(stats.max, `seed ${seed}`).toEqual(twosComplement(max));
    }
    const withZero = [Uint8Array.of(5), new Uint8Array(0), Uint8Array.of(3)]; // min 0: a zero-byte value
    expect(chunkStatistics(binary, undefined, withZero, 0, 3, 0).min).toBeUndefined();
  });
});
