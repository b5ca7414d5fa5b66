// The browser benchmark's body: for each table type, bulk insert N rows into a fresh table on OPFS or
// IndexedDB, then upsert a batch (half updates, half inserts) through a freshly opened table; times in seconds.
import { createTable, indexedDbStorage, openTable, opfsStorage, type Storage, type WriteProgress } from '../../src/index.ts';
// @ts-expect-error plain JS module shared with the Node bench
import { TRIP_SCHEMA, tripRows, upsertBatch } from '../data.mjs';

export type Store = 'opfs' | 'idb';
export type TableType = 'COPY_ON_WRITE' | 'MERGE_ON_READ';

export interface BenchParams {
  store: Store;
  rows: number;
  upsert: number;
  types: TableType[];
  codec?: string;
}

/** The same services-off options as the Node bench (bench/phase.mjs). */
const SERVICES = { clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false } };

const seconds = (t0: number) => (performance.now() - t0) / 1000;

/** Seconds per write phase, from onProgress. */
function phaseTimer() {
  const starts: { phase: string; at: number }[] = [];
  return {
    onProgress: (p: WriteProgress) => {
      if (starts.length === 0 || starts[starts.length - 1]!.phase !== p.phase) starts.push({ phase: p.phase, at: performance.now() });
    },
    seconds(end: number): Record<string, number> {
      const out: Record<string, number> = {};
      starts.forEach((s, i) => {
        const until = i + 1 < starts.length ? starts[i + 1]!.at : end;
        out[s.phase] = (out[s.phase] ?? 0) + (until - s.at) / 1000;
      });
      return out;
    },
  };
}

async function opfsRoot(): Promise<FileSystemDirectoryHandle> {
  return navigator.storage.getDirectory();
}

/** A fresh, empty store and a function that deletes it. */
async function freshStore(store: Store, name: string): Promise<{ storage: Storage; dispose(): Promise<void>; writeMethod?: string }> {
  if (store === 'opfs') {
    const folder = `lakelet-bench-${name}`;
    await (await opfsRoot()).removeEntry(folder, { recursive: true }).catch(() => undefined);
    const storage = opfsStorage(folder);
    return { storage, writeMethod: storage.writeMethod, dispose: async () => (await opfsRoot()).removeEntry(folder, { recursive: true }) };
  }
  const db = `lakelet-bench-${name}`;
  await deleteDb(db);
  const storage = indexedDbStorage(db);
  return {
    storage,
    dispose: async () => {
      storage.close();
      await deleteDb(db);
    },
  };
}

function deleteDb(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error);
    req.onblocked = () => resolve();
  });
}

async function storeBytes(storage: Storage): Promise<number> {
  const files = await storage.list('', { recursive: true });
  return files.reduce((n, f) => n + (f.kind === 'file' ? f.size : 0), 0);
}

/** Run the bench for one store; `log` reports progress. */
export async function runBench(p: BenchParams, log: (msg: string) => void) {
  const codec = p.codec ? { codec: p.codec as 'GZIP' } : {};
  const tables = [];
  for (const type of p.types) {
    const { storage, dispose, writeMethod } = await freshStore(p.store, `${type.toLowerCase()}-${Date.now()}`);
    try {
      const table = await createTable(storage, { name: 'trips', type, recordKey: 'uuid', orderingField: 'ts', partitionBy: ['city'], schema: TRIP_SCHEMA, ...SERVICES, ...codec });
      let t0 = performance.now();
      const input = [...tripRows(0, p.rows)];
      const generateSeconds = seconds(t0);
      log(`${p.store} ${type}: bulk insert of ${p.rows} rows`);
      const bulkPhases = phaseTimer();
      t0 = performance.now();
      const bulk = await table.bulkInsert(input, { ...SERVICES, ...codec, onProgress: bulkPhases.onProgress });
      const bulkSeconds = seconds(t0);
      const bulkPhaseSeconds = bulkPhases.seconds(performance.now());
      input.length = 0;
      const afterBulkBytes = await storeBytes(storage);
      const updates = Math.round(p.upsert / 2);
      const batch = upsertBatch(p.rows, updates, p.upsert - updates);
      log(`${p.store} ${type}: upsert of ${p.upsert} rows`);
      const reopened = await openTable(storage);
      const upsertPhases = phaseTimer();
      t0 = performance.now();
      const up = await reopened.upsert(batch, { ...SERVICES, ...codec, onProgress: upsertPhases.onProgress });
      const upsertSeconds = seconds(t0);
      tables.push({
        type,
        writeMethod,
        generateSeconds,
        bulkInsert: { seconds: bulkSeconds, phases: bulkPhaseSeconds, filesWritten: bulk.stats.filesWritten, bytesWritten: bulk.stats.bytesWritten },
        upsert: { seconds: upsertSeconds, phases: upsertPhases.seconds(performance.now()), updates, inserts: p.upsert - updates, filesWritten: up.stats.filesWritten, bytesWritten: up.stats.bytesWritten },
        bytes: { afterBulk: afterBulkBytes, afterUpsert: await storeBytes(storage) },
      });
      log(`${p.store} ${type}: bulk ${bulkSeconds.toFixed(2)} s, upsert ${upsertSeconds.toFixed(2)} s`);
    } finally {
      await dispose();
    }
  }
  return { store: p.store, rows: p.rows, upsert: p.upsert, tables };
}
