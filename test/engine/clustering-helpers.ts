// Shared by the clustering tests: tables built from many small commits (one new file group each), a storage
// that counts the data files a read opens, and the rows of a snapshot as comparable strings.
import { createTable, memoryStorage, type Storage, type Table } from '../../src/index.js';
import type { ByteRange } from '../../src/storage/storage.js';

/** Table options of the clustering tests: small bloom filters, one new file group per commit, no workers. */
export const CLUSTER_TABLE = { bloomFilter: { numEntries: 100 }, smallFileLimit: 0, workers: 0, clean: { automatic: false }, archive: { automatic: false } } as const;

/** A pseudo-random but fixed payload of `n` characters (incompressible enough that files have real data). */
export function payload(seed: number, n = 200): string {
  let x = seed * 2654435761 >>> 0;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out += String.fromCharCode(97 + ((x >>> 16) % 26));
  }
  return out;
}

/** Row `i` of the tables: key, ordering value, partition, the sort column `v` (0..999, scattered) and a payload. */
export function row(i: number, ts = 1): Record<string, unknown> {
  return { id: `k${String(i).padStart(5, '0')}`, ts, p: i % 2 === 0 ? 'a' : 'b', v: (i * 7919) % 1000, s: payload(i) };
}

/** Counts, per file, the reads that fetch data (not a file's tail: the footer fetch ends at the file's end). */
export function countingStorage(inner: Storage): { storage: Storage; dataFilesRead: () => Set<string>; reset: () => void } {
  let read = new Set<string>();
  const sizes = new Map<string, number>();
  const storage = new Proxy(inner, {
    get(target, key) {
      if (key === 'read') {
        return async (path: string, range?: ByteRange) => {
          const bytes = await target.read(path, range);
          if (!path.startsWith('.hoodie/') && (path.endsWith('.parquet') || path.includes('.log.'))) {
            const size = sizes.get(path) ?? (await target.head(path)).size;
            sizes.set(path, size);
            if (range === undefined || (range.end ?? size) < size) read.add(path);
          }
          return bytes;
        };
      }
      const v = Reflect.get(target, key) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { storage, dataFilesRead: () => read, reset: () => { read = new Set(); } };
}

/** A table of `commits` insert commits of `perCommit` rows each (rows 0.. in order), one new file group per commit. */
export async function smallFilesTable(type: 'COPY_ON_WRITE' | 'MERGE_ON_READ', tableVersion: 6 | 9, commits: number, perCommit = 5): Promise<{ storage: Storage; table: Table; counting: ReturnType<typeof countingStorage> }> {
  const counting = countingStorage(memoryStorage());
  const table = await createTable(counting.storage, { name: 't', type, tableVersion, recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], ...CLUSTER_TABLE });
  for (let c = 0; c < commits; c++) await table.insert(Array.from({ length: perCommit }, (_, j) => row(c * perCommit + j)));
  return { storage: counting.storage, table, counting };
}

/** Every row of the snapshot (or of `options`' read) as one string: all columns but `_hoodie_file_name`, sorted. */
export async function snapshot(table: Table, options: Record<string, unknown> = {}): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows(options)) {
    const { _hoodie_file_name: _name, ...rest } = r;
    out.push(JSON.stringify(rest, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
  }
  return out.sort();
}

/** Base files of the latest slices (their count and sizes). */
export async function baseFiles(table: Table): Promise<{ path: string; size: number }[]> {
  return (await table.fileSlices()).flatMap((s) => (s.baseFile ? [{ path: s.baseFile.path, size: s.baseFile.size }] : []));
}
