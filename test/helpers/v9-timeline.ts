// Checks of a layout-2 (v8/v9) timeline as lakelet leaves it, against what Spark wrote in the fixtures: the
// reference writer schema of each kind of instant file is taken from the fixtures' own files (their OCF headers),
// and every new file must have the fixture's structure — names, which files are empty, the embedded schema.
import { expect } from 'vitest';
import { readAvroContainer } from '../../src/format/avro/container.js';
import { parseLogFileName } from '../../src/file-group/file-names.js';
import type { Storage } from '../../src/index.js';
import { fixtureStorage } from './fixtures.js';

export const V9_COW = 'sample_table/cow/v9_txns_simple_nometa.zip';
export const V9_MOR = 'sample_table/mor/avro/v9_txns_simple_nometa.zip';
export const V8_COW = 'sample_table/cow/v8_nonpartitioned.zip';
export const V9_ROLLBACK = 'sample_table/mor/avro/v9_nonpartitioned_rollback.zip';
const TIMELINE = '.hoodie/timeline';

/** The kinds of timeline files lakelet writes on layout 2, as a file-name suffix pattern. */
type Kind = 'commit.requested' | 'deltacommit.requested' | 'inflight' | 'deltacommit.inflight' | 'commit' | 'deltacommit' | 'replacecommit.requested'
  | 'replacecommit.inflight' | 'replacecommit' | 'compaction.requested' | 'compaction.inflight' | 'rollback.requested' | 'rollback.inflight' | 'rollback'
  | 'clean.requested' | 'clean.inflight' | 'clean' | 'savepoint.inflight' | 'savepoint' | 'restore.requested' | 'restore.inflight' | 'restore';

/** The kind of a timeline file name, and its times (completion only for completed files). */
export function kindOf(name: string): { kind: Kind; requested: string; completion?: string } {
  const done = /^(\d{17})_(\d{17})\.([a-z]+)$/.exec(name);
  if (done) return { kind: done[3] as Kind, requested: done[1] as string, completion: done[2] as string };
  const pending = /^(\d{17})\.(.+)$/.exec(name);
  if (!pending) throw new Error(`not a layout-2 timeline file name: ${name}`);
  return { kind: pending[2] as Kind, requested: pending[1] as string };
}

/** Timeline file names (no folders). */
export async function timelineNames(storage: Storage): Promise<string[]> {
  return (await storage.list(TIMELINE)).filter((f) => f.kind === 'file').map((f) => f.path.slice(TIMELINE.length + 1)).sort();
}

/** The writer schema embedded in an Avro container. */
export const embeddedSchema = (bytes: Uint8Array): string => readAvroContainer(bytes).metadata['avro.schema'] as string;

/** Files that must be empty on layout 2 (Hudi writes nothing in them). */
const EMPTY: ReadonlySet<Kind> = new Set(['commit.requested', 'deltacommit.requested', 'compaction.inflight', 'rollback.inflight', 'savepoint.inflight']);

/** Where the fixtures show each kind: [fixture zip, file-name suffix of a non-empty file]. */
const REFERENCE: Partial<Record<Kind, [string, RegExp]>> = {
  inflight: [V9_COW, /^\d{17}\.inflight$/],
  'deltacommit.inflight': [V9_MOR, /\.deltacommit\.inflight$/],
  'replacecommit.inflight': [V9_MOR, /\.replacecommit\.inflight$/],
  commit: [V9_COW, /_\d{17}\.commit$/],
  deltacommit: [V9_MOR, /_\d{17}\.deltacommit$/],
  replacecommit: [V9_MOR, /_\d{17}\.replacecommit$/],
  'replacecommit.requested': [V9_MOR, /\.replacecommit\.requested$/],
  'compaction.requested': [V9_MOR, /\.compaction\.requested$/],
  'rollback.requested': [V9_ROLLBACK, /\.rollback\.requested$/],
  rollback: [V9_ROLLBACK, /_\d{17}\.rollback$/],
};

/** Record names of the kinds no fixture shows (clean, savepoint, restore): the schema's record must be Hudi's. */
const RECORD: Partial<Record<Kind, string>> = {
  'clean.requested': 'HoodieCleanerPlan', 'clean.inflight': 'HoodieCleanerPlan', clean: 'HoodieCleanMetadata', savepoint: 'HoodieSavepointMetadata',
  'restore.requested': 'HoodieRestorePlan', restore: 'HoodieRestoreMetadata',
};

const references = new Map<Kind, Promise<string>>();
/** The fixture's embedded schema for `kind`. */
function referenceSchema(kind: Kind): Promise<string> | undefined {
  const ref = REFERENCE[kind];
  if (!ref) return undefined;
  let p = references.get(kind);
  if (!p) {
    p = (async () => {
      const storage = await fixtureStorage(ref[0]);
      const name = (await timelineNames(storage)).find((n) => ref[1].test(n));
      if (!name) throw new Error(`no ${kind} file in ${ref[0]}`);
      return embeddedSchema(await storage.read(`${TIMELINE}/${name}`));
    })();
    references.set(kind, p);
  }
  return p;
}

/**
 * Every timeline file not in `before` has the fixtures' structure: a layout-2 name (completed `<t>_<c>` with
 * c > t), empty where Hudi writes nothing, else an Avro container whose writer schema is the exact string of the
 * fixture's file of the same kind (or Hudi's record for kinds no fixture has). Returns the new names.
 */
export async function expectFixtureStructure(storage: Storage, before: ReadonlySet<string> = new Set()): Promise<string[]> {
  const fresh = (await timelineNames(storage)).filter((n) => !before.has(n) && n !== 'history');
  for (const name of fresh) {
    const { kind, requested, completion } = kindOf(name);
    if (completion !== undefined) expect(completion > requested, `${name}: completion after request`).toBe(true);
    const bytes = await storage.read(`${TIMELINE}/${name}`);
    if (EMPTY.has(kind)) {
      expect(bytes.length, `${name} is empty`).toBe(0);
      continue;
    }
    if (bytes.length === 0 && kind === 'restore.inflight') continue;
    expect([...bytes.subarray(0, 4)], `${name} is an Avro container`).toEqual([0x4f, 0x62, 0x6a, 0x01]);
    const schema = embeddedSchema(bytes);
    const ref = referenceSchema(kind);
    if (ref) expect(schema, `${name}: the fixture's writer schema`).toBe(await ref);
    else expect((JSON.parse(schema) as { name: string }).name, `${name}: record`).toBe(RECORD[kind]);
    expect(readAvroContainer(bytes).records.length, `${name}: one record`).toBe(1);
  }
  return fresh;
}

/** Data files below the table root (not `.hoodie`). */
export async function dataFileNames(storage: Storage): Promise<string[]> {
  return (await storage.list('', { recursive: true })).map((f) => f.path).filter((p) => !p.startsWith('.hoodie/') && !p.includes('.hoodie_partition_metadata') && !p.startsWith('__MACOSX')).sort();
}

/**
 * Every log file not in `before` is named after a deltacommit on the timeline (v8/v9: the writing instant),
 * version 1 — a new file per file group per deltacommit. Returns the new log files' writing instants.
 */
export async function expectLayout2Logs(storage: Storage, before: ReadonlySet<string>): Promise<string[]> {
  const deltacommits = new Set((await timelineNames(storage)).filter((n) => /\.deltacommit$/.test(n)).map((n) => kindOf(n).requested));
  const out: string[] = [];
  for (const path of await dataFileNames(storage)) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const log = parseLogFileName(name);
    if (!log || before.has(path)) continue;
    expect(log.version, `${path}: version 1`).toBe(1);
    expect(deltacommits.has(log.instantTime), `${path}: named after a completed deltacommit`).toBe(true);
    out.push(log.instantTime);
  }
  return out;
}
