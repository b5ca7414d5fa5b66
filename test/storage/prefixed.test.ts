// prefixedStorage: a sub-folder of another store seen as a store of its own — the shared contract on a
// prefixed memory store, plus isolation from the rest of the inner store and read-only pass-through.
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/storage/memory.js';
import { prefixedStorage } from '../../src/storage/prefixed.js';
import { defineReadOnlyContract, defineStorageContract, lakeletError } from './contract.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

defineStorageContract('prefixedStorage(memory, "tables/trips")', async () => ({
  storage: prefixedStorage(memoryStorage(), 'tables/trips'),
}));

const files = { 'hoodie.properties': 'k=v', 'p/file.parquet': 'PAR1' };
defineReadOnlyContract('prefixedStorage over a read-only store', files, async () => ({
  storage: prefixedStorage(
    memoryStorage({ readOnly: true, files: [['root/hoodie.properties', enc('k=v')], ['root/p/file.parquet', enc('PAR1')], ['other/z', enc('z')]] }),
    'root',
  ),
}));

describe('prefixedStorage', () => {
  it('maps paths onto the inner store and back', async () => {
    const inner = memoryStorage();
    const s = prefixedStorage(inner, '/t1/');
    await s.write('.hoodie/hoodie.properties', enc('x'));
    expect((await inner.list('', { recursive: true })).map((i) => i.path)).toEqual(['t1/.hoodie/hoodie.properties']);
    expect((await s.head('.hoodie/hoodie.properties')).path).toBe('.hoodie/hoodie.properties');
    expect((await s.list('')).map((i) => [i.path, i.kind])).toEqual([['.hoodie', 'directory']]);
    expect(s.label).toBe('memory/t1');
  });
  it('does not see siblings of its folder', async () => {
    const inner = memoryStorage();
    await inner.write('t1/a', enc('a'));
    await inner.write('t10/b', enc('b'));
    await inner.write('c', enc('c'));
    const s = prefixedStorage(inner, 't1');
    expect((await s.list('', { recursive: true })).map((i) => i.path)).toEqual(['a']);
    expect((await lakeletError(s.read('../c'))).code).toBe('INVALID_ARGUMENT');
  });
  it('an empty prefix is the inner store itself', () => {
    const inner = memoryStorage();
    expect(prefixedStorage(inner, '')).toBe(inner);
  });
  it('rejects an invalid prefix', () => {
    expect(() => prefixedStorage(memoryStorage(), 'a/../b')).toThrow(/invalid path/);
  });
});
