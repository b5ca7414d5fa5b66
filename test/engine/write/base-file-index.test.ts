// The base-file indexes: keys packed in chunks (with event-loop turns between them) equal one packKeys call.
import { expect, test } from 'vitest';
import { packKeysInChunks } from '../../../src/engine/write/base-file-index.js';
import { packKeys } from '../../../src/kernels/kernels.js';

test('packKeysInChunks gives the bytes and offsets of packKeys, across chunk edges and non-ASCII keys', async () => {
  const keys = Array.from({ length: 12_345 }, (_, i) => (i % 7 === 0 ? `ключ-${i}-é` : `key-${i}`));
  const whole = packKeys(keys);
  const chunked = await packKeysInChunks(keys, 1000);
  expect(Array.from(chunked.offsets)).toEqual(Array.from(whole.offsets));
  const used = whole.offsets[keys.length] as number;
  expect(Buffer.from(chunked.bytes.subarray(0, used)).equals(Buffer.from(whole.bytes.subarray(0, used)))).toBe(true);
  expect((await packKeysInChunks(keys.slice(0, 10), 1000)).offsets.length).toBe(11);
});
