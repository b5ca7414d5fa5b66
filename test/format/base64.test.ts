// Base64 helpers: agreement with Node's Buffer on random data, padding rules, and CORRUPT_FILE on bad input.
import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from '../../src/format/base64.js';
import { isLakeletError } from '../../src/errors.js';

describe('base64', () => {
  it('matches Buffer for every length 0..300 and a 323,534-byte blob', () => {
    let seed = 1;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
    const lengths = [...Array.from({ length: 301 }, (_, i) => i), 323_534];
    for (const n of lengths) {
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) bytes[i] = next();
      const expected = Buffer.from(bytes).toString('base64');
      expect(encodeBase64(bytes)).toBe(expected);
      expect(decodeBase64(expected)).toEqual(bytes);
      expect(decodeBase64(expected.replace(/=+$/, ''))).toEqual(bytes); // padding optional
    }
  });

  it('rejects invalid characters, bad padding and dangling groups with CORRUPT_FILE', () => {
    for (const bad of ['A', 'AAAAA', 'AA=', 'A===', 'AA-A', 'AA A', 'AA\nA', 'AAé=', 'AA=A', 'AAAA====']) {
      let caught: unknown;
      try { decodeBase64(bad); } catch (err) { caught = err; }
      expect(isLakeletError(caught, 'CORRUPT_FILE'), bad).toBe(true);
    }
  });
});
