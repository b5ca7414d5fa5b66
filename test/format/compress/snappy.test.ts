// snappyCompress round-trips through hyparquet's and hysnappy's decompressors on edge-case and bulk inputs.
import { snappyUncompress } from 'hyparquet';
import { describe, expect, test } from 'vitest';
import { snappyCompressJs } from '../../../src/format/compress/snappy-js.js';
import { compressInputs } from './inputs.js';

describe('snappyCompressJs', () => {
  for (const [name, input] of compressInputs()) {
    test(`round-trips ${name} (${input.length} bytes)`, () => {
      const packed = snappyCompressJs(input);
      const out = new Uint8Array(input.length);
      snappyUncompress(packed, out);
      expect(Buffer.from(out).equals(Buffer.from(input))).toBe(true);
      expect(packed.length).toBeLessThanOrEqual(32 + input.length + Math.floor(input.length / 6));
    });
  }
});
