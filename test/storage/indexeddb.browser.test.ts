// indexedDbStorage in headless Chromium: the shared Storage contract (default and small chunks), range reads
// that fetch only the chunks they cover, durability per path, quota failures, and writeIfAbsent races
// across separate connections.
import { deleteDB, openDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storageError } from '../../src/storage/dom-errors.js';
import { DEFAULT_CHUNK_SIZE, indexedDbStorage, type IndexedDbStorage } from '../../src/storage/indexeddb.js';
import { defineStorageContract, firstDifference, lakeletError, patternBytes } from './contract.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);
let counter = 0;
const freshName = () => `lakelet-browser-test-${Date.now()}-${counter++}`;

defineStorageContract('indexedDbStorage (Chromium)', async () => {
  const name = freshName();
  const storage = indexedDbStorage(name);
  return { storage, cleanup: async () => { storage.close(); await deleteDB(name); } };
});

defineStorageContract('indexedDbStorage (Chromium, 1000-byte chunks)', async () => {
  const name = freshName();
  const storage = indexedDbStorage(name, { chunkSize: 1000 });
  return { storage, cleanup: async () => { storage.close(); await deleteDB(name); } };
});

/** Every getAll/get issued on the `chunks` store while `fn` runs: the key range and how many values came back. */
async function chunkReads(fn: () => Promise<unknown>): Promise<{ op: string; lower: unknown; upper: unknown; count: number }[]> {
  const log: { op: string; lower: unknown; upper: unknown; count: number }[] = [];
  const proto = IDBObjectStore.prototype;
  const { getAll, get } = proto;
  const record = (op: string, store: IDBObjectStore, query: unknown, req: IDBRequest) => {
    if (store.name !== 'chunks') return;
    const entry = { op, lower: query instanceof IDBKeyRange ? query.lower : query, upper: query instanceof IDBKeyRange ? query.upper : query, count: 0 };
    log.push(entry);
    req.addEventListener('success', () => { entry.count = Array.isArray(req.result) ? req.result.length : req.result === undefined ? 0 : 1; });
  };
  proto.getAll = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['getAll']>) {
    const req = getAll.apply(this, args);
    record('getAll', this, args[0], req);
    return req;
  };
  proto.get = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['get']>) {
    const req = get.apply(this, args);
    record('get', this, args[0], req);
    return req;
  };
  try {
    await fn();
  } finally {
    proto.getAll = getAll;
    proto.get = get;
  }
  return log;
}

describe('indexedDbStorage (Chromium)', () => {
  let name: string;
  let s: IndexedDbStorage;
  beforeEach(() => {
    name = freshName();
    s = indexedDbStorage(name);
  });
  afterEach(async () => {
    s.close();
    await deleteDB(name);
  });

  it('labels itself with the database name; default chunks are 256 KiB', async () => {
    expect(s.label).toBe(`indexeddb:${name}`);
    expect(DEFAULT_CHUNK_SIZE).toBe(256 * 1024);
    await s.write('f', patternBytes(DEFAULT_CHUNK_SIZE * 2 + 1));
    const db = await openDB(name);
    expect(await db.count('chunks')).toBe(3);
    expect(await db.get('files', 'f')).toMatchObject({ size: DEFAULT_CHUNK_SIZE * 2 + 1, chunks: 3, chunkSize: DEFAULT_CHUNK_SIZE });
    db.close();
  });

  it('a range read fetches only the chunks it covers', async () => {
    const big = patternBytes(5 * 1024 * 1024, 11); // 20 chunks of 256 KiB
    await s.write('p/file.parquet', big);
    const K = DEFAULT_CHUNK_SIZE;
    let got: Uint8Array = new Uint8Array(0);
    // The parquet footer: the last 8 bytes live in the last chunk.
    let log = await chunkReads(async () => { got = await s.read('p/file.parquet', { start: big.length - 8, end: big.length }); });
    expect(got).toEqual(big.subarray(big.length - 8));
    expect(log).toEqual([{ op: 'getAll', lower: ['p/file.parquet', 19], upper: ['p/file.parquet', 19], count: 1 }]);
    // A range straddling a chunk boundary: two chunks.
    log = await chunkReads(async () => { got = await s.read('p/file.parquet', { start: 3 * K - 10, end: 3 * K + 10 }); });
    expect(got).toEqual(big.subarray(3 * K - 10, 3 * K + 10));
    expect(log).toEqual([{ op: 'getAll', lower: ['p/file.parquet', 2], upper: ['p/file.parquet', 3], count: 2 }]);
    // An empty range and a range past the end fetch nothing.
    log = await chunkReads(async () => {
      await s.read('p/file.parquet', { start: 100, end: 100 });
      await s.read('p/file.parquet', { start: big.length + 5, end: big.length + 50 });
    });
    expect(log).toEqual([]);
    // The whole file: all 20 chunks in one request.
    log = await chunkReads(async () => { got = await s.read('p/file.parquet'); });
    expect(firstDifference(got, big)).toBe(-1);
    expect(log).toEqual([{ op: 'getAll', lower: ['p/file.parquet', 0], upper: ['p/file.parquet', 19], count: 20 }]);
  });

  it('tiny chunks: every range across boundaries reads back right', async () => {
    const t = indexedDbStorage(name, { chunkSize: 3 });
    const bytes = patternBytes(50, 2);
    await t.write('x', bytes);
    for (let start = 0; start <= 50; start += 7) {
      for (const len of [0, 1, 2, 3, 4, 9, 60]) expect(await t.read('x', { start, end: start + len })).toEqual(bytes.slice(start, start + len));
    }
    const log = await chunkReads(() => t.read('x', { start: 10, end: 14 }));
    expect(log).toEqual([{ op: 'getAll', lower: ['x', 3], upper: ['x', 4], count: 2 }]);
    t.close();
  });

  it('writes timeline files with strict durability and data files relaxed', async () => {
    const seen: [string, string | undefined][] = [];
    const proto = IDBDatabase.prototype;
    const transaction = proto.transaction;
    proto.transaction = function (this: IDBDatabase, stores: string | string[], mode?: IDBTransactionMode, options?: IDBTransactionOptions) {
      if (mode === 'readwrite') seen.push([[stores].flat().join('+'), options?.durability]);
      return transaction.call(this, stores, mode, options);
    } as typeof transaction;
    try {
      await s.write('.hoodie/hoodie.properties', enc('x'));
      await s.writeIfAbsent('.hoodie/20240101000000000.commit', enc('x'));
      await s.write('city=x/f1.parquet', enc('x'));
      await s.write('sub/table/.hoodie/1.commit', enc('x'));
      await s.delete('city=x/f1.parquet');
    } finally {
      proto.transaction = transaction;
    }
    expect(seen.map(([, d]) => d)).toEqual(['strict', 'strict', 'relaxed', 'strict', 'relaxed']);
    expect(seen.every(([stores]) => stores === 'files+chunks')).toBe(true);
  });

  it('writeIfAbsent: 20 concurrent callers on 4 separate connections → exactly one wins', async () => {
    const stores = [s, indexedDbStorage(name), indexedDbStorage(name, { chunkSize: 7 }), indexedDbStorage(name)];
    const contents = Array.from({ length: 20 }, (_, i) => enc(`writer-${i}-`.repeat(50 + i)));
    const results = await Promise.all(contents.map((c, i) => (stores[i % 4] as IndexedDbStorage).writeIfAbsent('.hoodie/1.commit', c)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(dec(await s.read('.hoodie/1.commit'))).toBe(dec(contents[results.indexOf(true)] as Uint8Array));
    for (const t of stores.slice(1)) t.close();
  });

  it('a readwrite transaction sees a create made through another connection', async () => {
    const other = indexedDbStorage(name);
    expect(await other.writeIfAbsent('a', enc('1'))).toBe(true);
    expect(await s.writeIfAbsent('a', enc('2'))).toBe(false);
    expect(dec(await s.read('a'))).toBe('1');
    other.close();
  });

  it('QuotaExceededError on a put: STORAGE naming the file, the transaction rolls back, nothing partial', async () => {
    const t = indexedDbStorage(name, { chunkSize: 4 });
    await t.write('keep', enc('kept, longer than a chunk'));
    const put = IDBObjectStore.prototype.put;
    let calls = 0;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (++calls === 3) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
    try {
      for (const op of [() => t.write('p/big.parquet', patternBytes(40)), () => t.writeIfAbsent('.hoodie/1.commit', patternBytes(40)), () => t.write('keep', patternBytes(40))]) {
        calls = 0;
        const err = await lakeletError(op());
        expect(err.code).toBe('STORAGE');
        expect(err.message).toMatch(/quota/);
        expect(err.context.reason).toBe('QUOTA_EXCEEDED');
        expect(['p/big.parquet', '.hoodie/1.commit', 'keep']).toContain(err.context.path);
      }
    } finally {
      IDBObjectStore.prototype.put = put;
    }
    expect((await t.list('', { recursive: true })).map((i) => i.path)).toEqual(['keep']);
    expect(dec(await t.read('keep'))).toBe('kept, longer than a chunk');
    const db = await openDB(name);
    expect(await db.count('chunks')).toBe(7);
    db.close();
    t.close();
  });

  it('maps QuotaExceededError (how Chromium aborts a transaction over quota) to STORAGE', () => {
    const err = storageError('indexeddb:x', '.hoodie/1.commit', 'create', new DOMException('quota', 'QuotaExceededError'));
    expect(err).toMatchObject({ code: 'STORAGE', context: { path: '.hoodie/1.commit', reason: 'QUOTA_EXCEEDED' } });
  });

  it('lists with a key range: siblings that share a string prefix stay out', async () => {
    for (const p of ['t/a', 't/b/c', 't0', 't.x', 'tt/a', 't/\u{1F600}', 's']) await s.write(p, enc(p));
    expect((await s.list('t')).map((i) => `${i.kind}:${i.path}`)).toEqual(['file:t/a', 'directory:t/b', 'file:t/\u{1F600}']);
    expect((await s.list('t', { recursive: true })).map((i) => i.path)).toEqual(['t/a', 't/b/c', 't/\u{1F600}']);
  });
});
