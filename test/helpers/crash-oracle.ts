// The crash tests' oracle: everything a reader can see, checked against the Map model (crash-model.ts) —
// snapshot with meta columns, time travel to every commit, incremental (previous, commit] ranges, the
// read-optimized view — plus the record index for every key against a plain scan, and an inventory of every
// file in the store (each referenced by committed metadata or an allowed housekeeping file).
import { expect } from 'vitest';
import { isLakeletError, openTable, type Storage, type Table, type TableType } from '../../src/index.js';
import { lookupLocations, readRecordIndexManifest } from '../../src/engine/write/record-index.js';
import { TableState } from '../../src/engine/table-state.js';
import { RECORD_INDEX_DIR } from '../../src/layout.js';
import { parseCommitMetadata } from '../../src/timeline/commit-metadata.js';
import { parseRollbackMetadata } from '../../src/timeline/rollback-metadata.js';
import { canonRecord, canonState, type CrashModel, type ModelCommit } from './crash-model.js';

/** A row read from the table, as the canonical line of {@link canonRecord}. */
function canonRow(r: Record<string, unknown>): string {
  return `${String(r._hoodie_commit_time)} ${String(r._hoodie_record_key)} ${String(r._hoodie_partition_path)} | ${String(r.part)}|${String(r.id)}|${String(r.ts)}|${String(r.v)}|${String(r.w ?? null)}`;
}

async function read(table: Table, options: Parameters<Table['rows']>[0] = {}): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const r of table.rows(options)) out.push(r);
  return out;
}

/** How much history the reads must reproduce. */
export interface ReadCheckOptions {
  label: string;
  type: TableType;
  /** Commits older than the newest `readableCommits` may answer time travel with NOT_FOUND (a clean ran). */
  readableCommits?: number;
  /** Skip time travel and incremental reads (the snapshot, RO view and meta columns are still checked). */
  latestOnly?: boolean;
  /** The read-optimized view the table had before a crashed operation that did not land (it must not move). */
  roBefore?: string[];
}

/** Row identity for the RO checks: commit time + key. */
const idOf = (line: string) => line.slice(0, line.indexOf(' |'));

/**
 * Check every read of the table in `storage` against `model`: the active commits are the newest of the
 * model's history; snapshot = the model (meta columns included); time travel to each commit = the model at
 * it; incremental (previous, c] = the records whose commit time is c; the read-optimized view = the snapshot
 * for copy-on-write, and for merge-on-read only versions the model held at their commit time. Also each
 * row's `_hoodie_commit_seqno` starts with its commit time and `_hoodie_file_name` names a latest file slice
 * of its partition. Returns the read-optimized view (canonical lines).
 */
export async function checkReads(storage: Storage, model: CrashModel, options: ReadCheckOptions): Promise<string[]> {
  const { label } = options;
  const table = await openTable(storage);
  const commits = table.commits.map((c) => c.requestedTime);
  const history = model.history;
  expect(commits.length, `${label}: active commits ${commits.join(',')} vs model ${history.map((h) => h.instant).join(',')}`).toBeLessThanOrEqual(history.length);
  const active = history.slice(history.length - commits.length);
  expect(commits, `${label}: completed commits`).toEqual(active.map((h) => h.instant));
  // A pending instant is never the latest completed commit.
  const pending = new Set(table.timeline.filter((i) => i.state !== 'COMPLETED' && ['commit', 'deltacommit', 'replacecommit', 'compaction'].includes(i.action)).map((i) => i.requestedTime));
  expect(commits.filter((c) => pending.has(c)), `${label}: pending instants listed as commits`).toEqual([]);

  const snapshot = await read(table);
  expect(snapshot.map(canonRow).sort(), `${label}: snapshot`).toEqual(canonState(model.state));
  const slices = await table.fileSlices();
  const sliceIds = new Map(slices.map((s) => [`${s.partitionPath}/${s.fileId}`, s]));
  for (const r of snapshot) {
    const where = `${label}: row ${String(r.id)}`;
    expect(String(r._hoodie_commit_seqno).startsWith(`${String(r._hoodie_commit_time)}_`), `${where}: commit seqno ${String(r._hoodie_commit_seqno)}`).toBe(true);
    const name = String(r._hoodie_file_name);
    const slice = sliceIds.get(`${String(r._hoodie_partition_path)}/${name.split('_')[0]}`);
    expect(slice, `${where}: file ${name} is not a latest slice of ${String(r._hoodie_partition_path)}`).toBeDefined();
    if (options.type === 'COPY_ON_WRITE') expect(name, `${where}: file name`).toBe(slice?.baseFile?.name);
  }

  for (const [i, c] of options.latestOnly ? [] : active.entries()) {
    const readable = options.readableCommits === undefined || i >= active.length - options.readableCommits;
    const prev = i === 0 ? history[history.length - active.length - 1]?.instant ?? '00000000000000000' : active[i - 1]!.instant;
    try {
      expect((await read(table, { asOf: c.instant })).map(canonRow).sort(), `${label}: as of ${c.instant}`).toEqual(canonState(c.state));
      expect((await read(table, { from: prev, to: c.instant })).map(canonRow).sort(), `${label}: incremental (${prev}, ${c.instant}]`).toEqual(incremental(c));
    } catch (err) {
      // Time travel past a clean may be refused — never answered with other rows.
      if (readable || !isLakeletError(err, 'NOT_FOUND')) throw err;
    }
  }

  const ro = (await read(table, { readOptimized: true })).map(canonRow).sort();
  if (options.type === 'COPY_ON_WRITE') {
    expect(ro, `${label}: read-optimized = snapshot`).toEqual(canonState(model.state));
  } else {
    // Base files only: every row is exactly the version the model held at its commit time.
    const versions = new Set(history.flatMap((h) => [...h.state.values()].map(canonRecord)));
    expect(ro.filter((l) => !versions.has(l)), `${label}: read-optimized rows no commit wrote`).toEqual([]);
    expect(new Set(ro.map(idOf)).size, `${label}: read-optimized duplicates`).toBe(ro.length);
    if (history.at(-1)?.kind === 'compaction') expect(ro, `${label}: read-optimized after a compaction`).toEqual(canonState(model.state));
  }
  if (options.roBefore) expect(ro, `${label}: read-optimized view moved`).toEqual(options.roBefore);
  return ro;
}

/** Incremental (previous, c]: the records of the state at c that c wrote (deletes leave no row). */
function incremental(c: ModelCommit): string[] {
  return [...c.state.values()].filter((r) => r.commitTime === c.instant).map(canonRecord).sort();
}

/**
 * The record index against a plain scan: a lookup of every key the model ever held (and one it never held)
 * returns exactly the group the snapshot row of that key lives in (`_hoodie_partition_path` + file id).
 */
export async function checkRecordIndex(storage: Storage, model: CrashModel, label: string): Promise<void> {
  const table = await openTable(storage);
  const scan = new Map<string, string[]>();
  for (const r of await read(table)) {
    const key = String(r._hoodie_record_key);
    scan.set(key, [...(scan.get(key) ?? []), `${String(r._hoodie_partition_path)}/${String(r._hoodie_file_name).split('_')[0]}`].sort());
  }
  const keys = new Set<string>(['never-written']);
  for (const h of model.history) for (const rec of h.state.values()) keys.add(rec.row.id);
  const found = await lookupLocations(await TableState.load(storage), keys);
  const got = new Map([...found].filter(([, locs]) => locs.length > 0).map(([k, locs]) => [k, locs.map((l) => `${l.partitionPath}/${l.fileId}`).sort()]));
  expect(new Map([...got].sort()), `${label}: record index lookups vs a scan`).toEqual(new Map([...scan].sort()));
}

const INSTANT_FILE = /^(\d{17})(?:_\d{17})?\.(?:(commit|deltacommit|replacecommit|compaction|rollback|clean|savepoint|restore)(?:\.(requested|inflight))?|(inflight))$/;
/** A timeline file's name: below `.hoodie/` (layout 1) or `.hoodie/timeline/` (layout 2), else undefined. */
const timelineName = (f: string): string | undefined => {
  const dir = f.startsWith('.hoodie/timeline/') ? '.hoodie/timeline/' : f.startsWith('.hoodie/') ? '.hoodie/' : undefined;
  return dir !== undefined && f.indexOf('/', dir.length) < 0 ? f.slice(dir.length) : undefined;
};

/**
 * Inventory: every file of the store is referenced by committed metadata or is allowed housekeeping.
 * Allowed: hoodie.properties, the archived timeline, the timeline files of completed instants and of pending
 * compaction plans, partition metadata, the record index's manifest and the shards it names, and data files
 * written by a completed commit (or by an archived one), or kept by a completed rollback (its command blocks
 * and the hidden logs). Everything else — pending instants, markers, heartbeats, lock files, temp files,
 * files of failed writes — is reported. `extraPaths` adds files the store's listing hides (node-fs temp files).
 */
export async function checkInventory(storage: Storage, label: string, extraPaths: readonly string[] = []): Promise<void> {
  const files = [...(await storage.list('', { recursive: true })).map((f) => f.path), ...extraPaths];
  // Instants by time and action (a compaction completes as a commit; `<t>.inflight` is a commit's).
  const instantOf = (f: string) => {
    const name = timelineName(f);
    const m = name === undefined ? null : INSTANT_FILE.exec(name);
    if (!m) return undefined;
    const action = m[4] ? 'commit' : (m[2] as string);
    return { time: m[1] as string, action, key: `${m[1]}.${action === 'compaction' ? 'commit' : action}`, state: m[4] ? 'inflight' : m[3] ?? 'completed' };
  };
  const timeline = new Map<string, { completed: boolean; compactionPlan: boolean }>();
  for (const f of files) {
    const i = instantOf(f);
    if (!i) continue;
    const t = timeline.get(i.key) ?? { completed: false, compactionPlan: false };
    if (i.state === 'completed') t.completed = true;
    if (i.action === 'compaction' && i.state === 'requested') t.compactionPlan = true;
    timeline.set(i.key, t);
  }
  const oldestActive = [...timeline.entries()].filter(([, t]) => t.completed).map(([k]) => k.slice(0, 17)).sort()[0] ?? '99999999999999999';
  const referenced = new Set<string>();
  for (const f of files) {
    const i = instantOf(f);
    if (!i || i.state !== 'completed') continue;
    const bytes = await storage.read(f);
    if (['commit', 'deltacommit', 'replacecommit'].includes(i.action)) {
      for (const stats of Object.values(parseCommitMetadata(bytes, f).partitionToWriteStats)) {
        for (const s of stats) {
          if (s.path) referenced.add(s.path);
          const cdc = s.raw.cdcStats; // .cdc log files (CDC-enabled tables)
          if (cdc !== null && typeof cdc === 'object') for (const p of Object.keys(cdc)) referenced.add(p);
        }
      }
    } else if (i.action === 'rollback') {
      for (const p of Object.values(parseRollbackMetadata(bytes, f).partitionMetadata)) {
        for (const x of [...Object.keys(p.rollbackLogFiles), ...Object.keys(p.logFilesFromFailedCommit)]) referenced.add(x);
      }
    }
  }
  const manifest = await readRecordIndexManifest(storage).catch(() => undefined);
  const shards = new Set((manifest?.shards ?? []).filter((s): s is string => s !== null).map((s) => `${RECORD_INDEX_DIR}/${s}`));
  const orphans: string[] = [];
  for (const f of files) {
    const name = f.slice(f.lastIndexOf('/') + 1);
    if (name.includes('.lakelet-tmp-')) orphans.push(`${f} (temp file)`);
    else if (f === '.hoodie/hoodie.properties' || f.startsWith('.hoodie/archived/') || f.startsWith('.hoodie/timeline/history/')) continue;
    else if (f.startsWith('.hoodie/metadata/') || f === '.hoodie/.index_defs/index.json') continue; // the MDT's own inventory: validateTable and the MDT crash tests
    else if (f.startsWith(`${RECORD_INDEX_DIR}/`)) {
      if (f !== `${RECORD_INDEX_DIR}/manifest.json` && !shards.has(f)) orphans.push(`${f} (record index file the manifest does not name)`);
    } else if (f.startsWith('.hoodie/')) {
      const i = instantOf(f);
      const t = i ? timeline.get(i.key) : undefined;
      if (!i || !t) orphans.push(`${f} (housekeeping)`);
      else if (!t.completed && !(t.compactionPlan && i.action === 'compaction')) orphans.push(`${f} (pending instant)`);
    } else if (name === '.hoodie_partition_metadata') continue;
    else {
      const base = /_(\d{17})\.parquet$/.exec(name);
      const log = /^\.[^_]+_(\d{17})\.log\./.exec(name);
      const instant = base?.[1] ?? log?.[1];
      if (referenced.has(f)) continue;
      if (instant !== undefined && instant < oldestActive) continue; // written by an archived commit
      orphans.push(`${f} (data file no completed commit references)`);
    }
  }
  expect(orphans, `${label}: files neither committed nor allowed`).toEqual([]);
}
