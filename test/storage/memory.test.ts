// memoryStorage (the reference adapter) against the shared Storage contract, plus its own options:
// initial files, read-only mode and labels.
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/storage/memory.js';
import { defineReadOnlyContract, defineStorageContract, lakeletError } from './contract.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

defineStorageContract('memoryStorage', async () => ({ storage: memoryStorage() }));

const files = { 'a.txt': 'alpha', 'dir/b.txt': 'bravo', 'dir/sub/c.txt': 'charlie' };
defineReadOnlyContract('memoryStorage({ readOnly: true })', files, async () => ({
  storage: memoryStorage({ readOnly: true, files: Object.entries(files).map(([p, t]) => [p, enc(t)]) }),
}));

describe('memoryStorage options', () => {
  it('starts with the given files (normalised paths) and uses the label in messages', async () => {
    const s = memoryStorage({ label: 'mine', files: new Map([['/x/y.txt', enc('y')]]) });
    expect(s.label).toBe('mine');
    expect((await s.list('', { recursive: true })).map((i) => i.path)).toEqual(['x/y.txt']);
    const err = await lakeletError(s.read('nope'));
    expect(err.message).toContain('mine');
    expect(err.message).toContain('nope');
  });
  it('rejects an invalid initial path', () => {
    expect(() => memoryStorage({ files: [['a/../b', enc('x')]] })).toThrow(/invalid path/);
  });
  it('reports lastModified for files', async () => {
    const before = Date.now();
    const s = memoryStorage();
    await s.write('f', enc('x'));
    const info = await s.head('f');
    expect(info.lastModified).toBeGreaterThanOrEqual(before);
  });
});
