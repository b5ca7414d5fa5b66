// storageBuffer and ownBuffer: ranged reads through a Storage as an hyparquet AsyncBuffer (footer reads cached),
// and the "whole buffer or copy" rule for handing out a view's bytes.
import { describe, expect, it } from 'vitest';
import { ownBuffer, storageBuffer } from '../../src/storage/async-buffer.js';
import { memoryStorage } from '../../src/storage/memory.js';
import type { ByteRange } from '../../src/storage/storage.js';

describe('ownBuffer', () => {
  it('returns the view\'s own buffer when the view spans all of it', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(ownBuffer(bytes)).toBe(bytes.buffer);
  });

  it('copies exactly the viewed bytes of a view into a larger buffer', () => {
    const whole = new Uint8Array([1, 2, 3, 4, 5]);
    const out = ownBuffer(whole.subarray(1, 4));
    expect(out).not.toBe(whole.buffer);
    expect([...new Uint8Array(out)]).toEqual([2, 3, 4]);
  });
});

describe('storageBuffer', () => {
  it('reads ranges on demand and caches only reads that end at the end of the file', async () => {
    const storage = memoryStorage({ files: [['f', new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7])]] });
    const reads: (ByteRange | undefined)[] = [];
    const read = storage.read.bind(storage);
    storage.read = (path, range) => {
      reads.push(range);
      return read(path, range);
    };
    const buf = await storageBuffer(storage, 'f');
    expect(buf.byteLength).toBe(8);
    expect([...new Uint8Array(await buf.slice(2, 4))]).toEqual([2, 3]);
    expect([...new Uint8Array(await buf.slice(6))]).toEqual([6, 7]);
    await buf.slice(6);
    await buf.slice(2, 4);
    expect(reads).toEqual([{ start: 2, end: 4 }, { start: 6, end: 8 }, { start: 2, end: 4 }]);
  });
});
