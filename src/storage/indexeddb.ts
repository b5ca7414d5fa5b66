// indexedDbStorage: a Storage in one IndexedDB database. Files are kept as fixed-size chunks keyed by
// [path, chunkIndex] beside a metadata record per path; range reads fetch only the chunks they cover, and
// writeIfAbsent checks and writes in one readwrite transaction, which makes it atomic across tabs and workers.
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { corruptFile, LakeletError, notFound } from '../errors.js';
import { isMetaPathOfAnyTable } from '../layout.js';
import { errorName, storageError } from './dom-errors.js';
import { listFlat } from './listing.js';
import { checkRange, normalizePath, type ByteRange, type FileInfo, type ListOptions, type Storage } from './storage.js';

/** Options of {@link indexedDbStorage}. */
export interface IndexedDbStorageOptions {
  /** Bytes per stored chunk for files written through this instance (default 256 KiB). */
  chunkSize?: number;
}

/** A Storage over an IndexedDB database. */
export interface IndexedDbStorage extends Storage {
  /** Close the database connection (the next operation opens it again). */
  close(): void;
}

/** The default chunk size: 256 KiB. */
export const DEFAULT_CHUNK_SIZE = 256 * 1024;

/** What the `files` store keeps per path. */
interface FileMeta {
  size: number;
  /** Number of chunks in the `chunks` store under [path, 0 … chunks-1]. */
  chunks: number;
  /** Bytes per chunk (the last may be shorter). */
  chunkSize: number;
  lastModified: number;
}

interface LakeletDb extends DBSchema {
  files: { key: string; value: FileMeta };
  chunks: { key: [string, number]; value: Uint8Array };
}

type WriteTx = IDBPTransaction<LakeletDb, ('files' | 'chunks')[], 'readwrite'>;

/** The object stores of a lakelet database (schema version 1). */
const FILES = 'files';
const CHUNKS = 'chunks';
const VERSION = 1;

/**
 * A Storage kept in the IndexedDB database `dbName` (created on first use). Each file is a metadata record
 * (`files` store: path → size, chunk count, chunk size, modification time) plus its bytes in chunks of
 * `chunkSize` (`chunks` store, key `[path, index]`). A range read fetches only the chunks it covers, in one
 * read transaction (a consistent snapshot). `write` and `delete` replace or drop the metadata and the chunks
 * in one transaction; `writeIfAbsent` checks and writes in one readwrite transaction over both stores, and
 * IndexedDB runs overlapping readwrite transactions one at a time, so exactly one concurrent caller wins,
 * across every tab and worker of the origin. Timeline files (under `.hoodie/`) are written with `strict`
 * durability (flushed before the write resolves), data files with `relaxed`. A full quota raises `STORAGE`
 * naming the file; the transaction is rolled back, so no partial file is left.
 */
export function indexedDbStorage(dbName: string, options: IndexedDbStorageOptions = {}): IndexedDbStorage {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) {
    throw new LakeletError('INVALID_ARGUMENT', `storage(indexeddb:${dbName}): chunkSize must be a positive integer, got ${chunkSize}`, { field: 'chunkSize', value: chunkSize });
  }
  return new IndexedDbStore(dbName, chunkSize);
}

/** Timeline files get strict durability: they are the commit points. */
function durabilityOf(path: string): IDBTransactionDurability {
  return isMetaPathOfAnyTable(path) ? 'strict' : 'relaxed';
}

/** Every chunk key of `path`. */
function allChunks(path: string): IDBKeyRange {
  return IDBKeyRange.bound([path, 0], [path, Infinity]);
}

class IndexedDbStore implements IndexedDbStorage {
  readonly label: string;
  readonly readOnly = false;
  private opening: Promise<IDBPDatabase<LakeletDb>> | undefined;

  constructor(private readonly dbName: string, private readonly chunkSize: number) {
    this.label = `indexeddb:${dbName}`;
  }

  private db(): Promise<IDBPDatabase<LakeletDb>> {
    if (this.opening) return this.opening;
    const opening = (async () => {
      const db = await openDB<LakeletDb>(this.dbName, VERSION, {
        upgrade(database) {
          if (!database.objectStoreNames.contains(FILES)) database.createObjectStore(FILES);
          if (!database.objectStoreNames.contains(CHUNKS)) database.createObjectStore(CHUNKS);
        },
        // Another connection wants to upgrade or delete the database: let it, and reopen on next use.
        blocking: () => this.close(),
        terminated: () => {
          if (this.opening === opening) this.opening = undefined;
        },
      });
      if (!db.objectStoreNames.contains(FILES) || !db.objectStoreNames.contains(CHUNKS)) {
        db.close();
        throw new LakeletError('STORAGE', `storage(${this.label}): database ${JSON.stringify(this.dbName)} exists but is not a lakelet store`, {});
      }
      return db;
    })();
    this.opening = opening;
    opening.catch(() => {
      if (this.opening === opening) this.opening = undefined;
    });
    return opening.catch((err: unknown) => {
      throw storageError(this.label, '', 'open database', err);
    });
  }

  close(): void {
    const opening = this.opening;
    this.opening = undefined;
    void opening?.then((db) => db.close(), () => undefined);
  }

  async head(path: string): Promise<FileInfo> {
    const p = normalizePath(path);
    let meta: FileMeta | undefined;
    try {
      meta = await (await this.db()).get(FILES, p);
    } catch (err) {
      throw storageError(this.label, p, 'stat', err);
    }
    if (!meta) throw notFound(this.label, p);
    return { path: p, size: meta.size, kind: 'file', lastModified: meta.lastModified };
  }

  async read(path: string, range?: ByteRange): Promise<Uint8Array> {
    const p = normalizePath(path);
    let meta: FileMeta | undefined;
    let chunks: Uint8Array[];
    let r: ByteRange;
    let first: number;
    try {
      const tx = (await this.db()).transaction([FILES, CHUNKS], 'readonly');
      const done = tx.done.catch(() => undefined);
      meta = await tx.objectStore(FILES).get(p);
      if (!meta) {
        await done;
        throw notFound(this.label, p);
      }
      r = checkRange(this.label, p, meta.size, range);
      if (r.end <= r.start) {
        await done;
        return new Uint8Array(0);
      }
      first = Math.floor(r.start / meta.chunkSize);
      const last = Math.floor((r.end - 1) / meta.chunkSize);
      chunks = await tx.objectStore(CHUNKS).getAll(IDBKeyRange.bound([p, first], [p, last]));
      await tx.done;
      if (chunks.length !== last - first + 1) throw corruptFile(`storage(${this.label}): expected chunks ${first}…${last}, found ${chunks.length}`, p, r.start);
    } catch (err) {
      throw storageError(this.label, p, 'read', err);
    }
    const out = new Uint8Array(r.end - r.start);
    let at = first * meta.chunkSize;
    for (const chunk of chunks) {
      if (!(chunk instanceof Uint8Array)) throw corruptFile(`storage(${this.label}): chunk is not bytes`, p, at);
      const from = Math.max(r.start, at);
      const to = Math.min(r.end, at + chunk.length);
      if (to > from) out.set(chunk.subarray(from - at, to - at), from - r.start);
      at += chunk.length;
    }
    if (at < r.end) throw corruptFile(`storage(${this.label}): chunks hold ${at} bytes, the file ${meta.size}`, p, at);
    return out;
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    const p = normalizePath(path);
    if (p === '') throw notFound(this.label, p);
    const tx = await this.writeTx(p, 'write');
    await this.finish(tx, p, 'write', (requests) => {
      requests.push(tx.objectStore(CHUNKS).delete(allChunks(p)));
      this.putFile(tx, p, bytes, requests);
    });
  }

  async writeIfAbsent(path: string, bytes: Uint8Array): Promise<boolean> {
    const p = normalizePath(path);
    if (p === '') throw notFound(this.label, p);
    const tx = await this.writeTx(p, 'create');
    let exists: boolean;
    try {
      exists = (await tx.objectStore(FILES).getKey(p)) !== undefined;
    } catch (err) {
      await tx.done.catch(() => undefined);
      throw storageError(this.label, p, 'create', err);
    }
    if (exists) {
      await tx.done.catch(() => undefined);
      return false;
    }
    await this.finish(tx, p, 'create', (requests) => this.putFile(tx, p, bytes, requests));
    return true;
  }

  async list(prefix: string, options: ListOptions = {}): Promise<FileInfo[]> {
    const dir = normalizePath(prefix);
    const start = dir === '' ? '' : `${dir}/`;
    // Every key starting with `dir/`: from `dir/` up to `dir0` ('0' follows '/').
    const range = dir === '' ? undefined : IDBKeyRange.bound(start, `${dir}0`, false, true);
    let keys: string[];
    let metas: FileMeta[];
    try {
      const tx = (await this.db()).transaction(FILES, 'readonly');
      [keys, metas] = await Promise.all([tx.store.getAllKeys(range), tx.store.getAll(range), tx.done]);
    } catch (err) {
      throw storageError(this.label, dir, 'list', err);
    }
    const files = keys.flatMap((path, i): [string, FileMeta][] => {
      const meta = metas[i];
      return meta ? [[path, meta]] : [];
    });
    return listFlat(dir, files, options.recursive === true, (path, meta) => ({ path, size: meta.size, kind: 'file', lastModified: meta.lastModified }));
  }

  async delete(path: string): Promise<void> {
    const p = normalizePath(path);
    if (p === '') return;
    const tx = await this.writeTx(p, 'delete');
    await this.finish(tx, p, 'delete', (requests) => {
      requests.push(tx.objectStore(FILES).delete(p), tx.objectStore(CHUNKS).delete(allChunks(p)));
    });
  }

  private async writeTx(path: string, what: string): Promise<WriteTx> {
    try {
      return (await this.db()).transaction([FILES, CHUNKS], 'readwrite', { durability: durabilityOf(path) });
    } catch (err) {
      throw storageError(this.label, path, what, err);
    }
  }

  /** Queue the chunk and metadata puts of a whole file, adding the request promises to `requests`. */
  private putFile(tx: WriteTx, path: string, bytes: Uint8Array, requests: Promise<unknown>[]): void {
    const size = bytes.length;
    const count = Math.ceil(size / this.chunkSize);
    const chunks = tx.objectStore(CHUNKS);
    for (let i = 0; i < count; i++) requests.push(chunks.put(bytes.slice(i * this.chunkSize, (i + 1) * this.chunkSize), [path, i]));
    requests.push(tx.objectStore(FILES).put({ size, chunks: count, chunkSize: this.chunkSize, lastModified: Date.now() }, path));
  }

  /** Issue the requests `queue` makes, wait for the transaction, and map any failure (aborting the rest). */
  private async finish(tx: WriteTx, path: string, what: string, queue: (requests: Promise<unknown>[]) => void): Promise<void> {
    const requests: Promise<unknown>[] = [];
    let thrown: unknown;
    try {
      queue(requests);
    } catch (err) {
      thrown = err;
      try {
        tx.abort();
      } catch {
        /* already finished */
      }
    }
    const settled = await Promise.allSettled([...requests, tx.done]);
    const reasons = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
    if (thrown !== undefined) reasons.unshift(thrown);
    if (reasons.length === 0) return;
    // The request's own error says more than the transaction's AbortError.
    const cause = reasons.find((r) => errorName(r) !== 'AbortError') ?? reasons[0];
    throw storageError(this.label, path, what, cause);
  }
}
