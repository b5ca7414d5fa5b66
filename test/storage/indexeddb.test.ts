// indexedDbStorage in Node over fake-indexeddb: the shared Storage contract, plus chunking, durability
// classes, failure mapping (quota, aborted transactions) and databases that are not lakelet stores.
import 'fake-indexeddb/auto';
import { deleteDB, openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { indexedDbStorage } from '../../src/storage/indexeddb.js';
import { defineStorageContract, lakeletError, patternBytes } from './contract.js';

let counter = 0;
const freshName = () => `lakelet-node-test-${Date.now()}-${counter++}`;

defineStorageContract('indexedDbStorage (fake-indexeddb)', async () => {
  const name = freshName();
  const storage = indexedDbStorage(name);
  return { storage, cleanup: async () => { storage.close(); await deleteDB(name); } };
});

defineStorageContract('indexedDbStorage (fake-indexeddb, 1000-byte chunks)', async () => {
  const name = freshName();
  const storage = indexedDbStorage(name, { chunkSize: 1000 });
  return { storage, cleanup: async () => { storage.close(); await deleteDB(name); } };
});

describe('indexedDbStorage (Node)', () => {
  it('keeps files as chunks and reads across chunk boundaries', async () => {
    const name = freshName();
    const s = indexedDbStorage(name, { chunkSize: 10 });
    const bytes = patternBytes(95, 3);
    await s.write('a/f.bin', bytes);
    const db = await openDB(name);
    expect(await db.count('chunks')).toBe(10);
    expect(await db.get('files', 'a/f.bin')).toMatchObject({ size: 95, chunks: 10, chunkSize: 10 });
    db.close();
    for (const [start, end] of [[0, 95], [9, 11], [10, 20], [19, 41], [90, 200], [94, 95]] as const) {
      expect(await s.read('a/f.bin', { start, end })).toEqual(bytes.slice(start, end));
    }
    await s.write('a/f.bin', bytes.subarray(0, 25)); // shrinking drops the extra chunks
    const again = await openDB(name);
    expect(await again.count('chunks')).toBe(3);
    again.close();
    await s.delete('a/f.bin');
    const after = await openDB(name);
    expect(await after.count('chunks')).toBe(0);
    after.close();
    s.close();
    await deleteDB(name);
  });

  it('reads files written with another chunk size', async () => {
    const name = freshName();
    const bytes = patternBytes(1000, 9);
    await indexedDbStorage(name, { chunkSize: 64 }).write('x', bytes);
    const other = indexedDbStorage(name, { chunkSize: 1000 });
    expect(await other.read('x', { start: 100, end: 300 })).toEqual(bytes.slice(100, 300));
    other.close();
  });

  it('rejects a bad chunk size', () => {
    expect(() => indexedDbStorage('x', { chunkSize: 0 })).toThrow(/chunkSize/);
    expect(() => indexedDbStorage('x', { chunkSize: 1.5 })).toThrow(/chunkSize/);
  });

  it('refuses a database that is not a lakelet store', async () => {
    const name = freshName();
    const db = await openDB(name, 1, { upgrade: (d) => { d.createObjectStore('other'); } });
    db.close();
    const err = await lakeletError(indexedDbStorage(name).head('x'));
    expect(err.code).toBe('STORAGE');
    expect(err.message).toContain('not a lakelet store');
  });

  it('a failing put aborts the transaction: STORAGE naming the file, nothing left', async () => {
    const name = freshName();
    const s = indexedDbStorage(name, { chunkSize: 4 });
    await s.write('keep', new Uint8Array([1, 2, 3]));
    const put = IDBObjectStore.prototype.put;
    let calls = 0;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (++calls === 2) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
    try {
      const err = await lakeletError(s.write('.hoodie/big.commit', patternBytes(20)));
      expect(err.code).toBe('STORAGE');
      expect(err.context.path).toBe('.hoodie/big.commit');
      expect(err.message).toMatch(/quota/);
      calls = 0;
      const err2 = await lakeletError(s.writeIfAbsent('other', patternBytes(20)));
      expect(err2.code).toBe('STORAGE');
    } finally {
      IDBObjectStore.prototype.put = put;
    }
    expect((await s.list('', { recursive: true })).map((i) => i.path)).toEqual(['keep']);
    const db = await openDB(name);
    expect(await db.count('chunks')).toBe(1);
    db.close();
    expect(await s.writeIfAbsent('other', patternBytes(20))).toBe(true);
    s.close();
  });

  it('labels itself with the database name and survives a deleteDB from elsewhere', async () => {
    const name = freshName();
    const s = indexedDbStorage(name);
    expect(s.label).toBe(`indexeddb:${name}`);
    await s.write('f', new Uint8Array([1]));
    await deleteDB(name); // our open connection is asked to close and lets it happen
    expect((await lakeletError(s.head('f'))).code).toBe('NOT_FOUND');
    await s.write('f', new Uint8Array([2]));
    expect(await s.read('f')).toEqual(new Uint8Array([2]));
    s.close();
  });
});
