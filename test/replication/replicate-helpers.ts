// Shared pieces of the replication tests: a small partitioned table written through the public API (v6 or
// v9, COW or MOR), the rows of a snapshot (latest or as of an instant) as sorted JSON, and the completed
// instants of a store's data timeline in order.
import { createTable, jsonRow, openTable, type Storage, type Table } from '../../src/index.js';
import { parseInstantFileName } from '../../src/timeline/instant.js';
import { Timeline } from '../../src/timeline/timeline.js';

/** The tables' schema. */
export const SCHEMA = {
  type: 'record', name: 'r', namespace: 'replicate',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: ['null', 'long'], default: null }],
};

/** Write options of the test tables: no inline services (the tests run them), no workers. */
export const QUIET = { compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false }, heartbeatTimeoutMs: 0, workers: 0, codec: 'UNCOMPRESSED' } as const;

/** Table shapes the tests cover. */
export interface Shape {
  type: 'COPY_ON_WRITE' | 'MERGE_ON_READ';
  version: 6 | 9;
}

/** A row with key `id` in partition `part`. */
export const row = (id: string, part: string, ts: number, v: number) => ({ id, part, ts, v });

/** Create the table and write two commits into it. */
export async function makeTable(storage: Storage, shape: Shape): Promise<Table> {
  const table = await createTable(storage, { name: 'rep', type: shape.type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, tableVersion: shape.version });
  await table.upsert([row('a', 'x', 1, 1), row('b', 'x', 1, 2), row('c', 'y', 1, 3)], QUIET);
  await table.upsert([row('b', 'x', 2, 20), row('d', 'z', 1, 4)], QUIET);
  return table;
}

/** Sorted JSON rows of the table's snapshot, latest or as of `asOf`. */
export async function snapshotRows(table: Table, asOf?: string): Promise<string[]> {
  const schema = await table.avroSchema(asOf === undefined ? {} : { asOf });
  const out: string[] = [];
  for await (const r of table.rows(asOf === undefined ? {} : { asOf })) out.push(JSON.stringify(jsonRow(r, schema)));
  return out.sort();
}

/** Sorted JSON rows of the latest snapshot of the table in `storage`. */
export async function storeRows(storage: Storage): Promise<string[]> {
  return snapshotRows(await openTable(storage));
}

/** Completed instant file names of the data table's active timeline (layout 1 or 2), in timeline order. */
export async function completedFiles(storage: Storage, folder = '.hoodie'): Promise<string[]> {
  const names: string[] = [];
  for (const dir of [folder, `${folder}/timeline`]) for (const f of await storage.list(dir)) if (f.kind === 'file' && parseInstantFileName(f.path.slice(dir.length + 1))) names.push(f.path.slice(dir.length + 1));
  return Timeline.fromFileNames(names).completed().map((i) => i.fileName);
}

/** Writers' process-local files, which replication leaves alone. */
const LOCAL = /(^|\/)\.hoodie\/(\.temp|\.heartbeat|\.lakelet-commit)/;

/** Every file of a store but writers' local state, path → bytes. */
export async function replicatedTree(storage: Storage): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for (const f of await storage.list('', { recursive: true })) if (f.kind === 'file' && !LOCAL.test(f.path)) out.set(f.path, await storage.read(f.path));
  return out;
}

/** The paths whose bytes differ between two trees (or that only one has), sorted. */
export function treeDifferences(a: Map<string, Uint8Array>, b: Map<string, Uint8Array>): string[] {
  const out: string[] = [];
  for (const [p, bytes] of a) {
    const other = b.get(p);
    if (!other || other.length !== bytes.length || other.some((x, i) => x !== bytes[i])) out.push(p);
  }
  for (const p of b.keys()) if (!a.has(p)) out.push(p);
  return out.sort();
}
