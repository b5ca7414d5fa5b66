// HoodieLSMTimelineInstant rows: what Hudi's createLSMTimelineInstant puts in `metadata` and `plan` for each
// action (the raw bytes of the completed file and of the plan's timeline file), the parquet round trip, decoding
// errors, and the archived entries (commit / clean metadata decoded from the raw Avro bytes) a reader makes.
import { describe, expect, test } from 'vitest';
import { writeBaseFile } from '../../src/format/parquet/write.js';
import { parseAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import { ArchivedTimeline } from '../../src/timeline/archived-timeline.js';
import { serializeCleanerPlan, serializeCleanMetadata } from '../../src/timeline/clean-metadata.js';
import { serializeCommitMetadataAvro } from '../../src/timeline/commit-metadata-avro.js';
import { parseInstantFileName, type Instant } from '../../src/timeline/instant.js';
import { decodeLsmFile, encodeLsmFile, lsmArchivedEntry, lsmInstantRow, type LsmInstantRow } from '../../src/timeline/lsm-instant.js';
import { failure } from '../helpers/expect-error.js';

const T = '20240101000000100';
const C = '20240101000000200';
const at = (name: string): Instant => parseInstantFileName(name)!;
const b = (...xs: number[]) => new Uint8Array(xs);
const file = (name: string, bytes: Uint8Array) => ({ instant: at(name), bytes });

describe('lsmInstantRow: metadata and plan by action', () => {
  test('a commit: the completed file as metadata, times from the names, no plan', () => {
    const row = lsmInstantRow({ completed: file(`${T}_${C}.commit`, b(1, 2)), requested: file(`${T}.commit.requested`, b(9)), inflight: file(`${T}.inflight`, b(8)) });
    expect(row).toEqual({ instantTime: T, completionTime: C, action: 'commit', metadata: b(1, 2), plan: null, version: 1 });
  });

  test('an empty completed file: no metadata; a deltacommit or rollback: no plan', () => {
    expect(lsmInstantRow({ completed: file(`${T}_${C}.deltacommit`, b()), requested: file(`${T}.deltacommit.requested`, b(3)) }).metadata).toBeNull();
    expect(lsmInstantRow({ completed: file(`${T}_${C}.rollback`, b(4)), requested: file(`${T}.rollback.requested`, b(5)) }).plan).toBeNull();
  });

  test('a clean: its requested plan, or the inflight one when the requested file is gone', () => {
    expect(lsmInstantRow({ completed: file(`${T}_${C}.clean`, b(1)), requested: file(`${T}.clean.requested`, b(2)), inflight: file(`${T}.clean.inflight`, b(3)) }).plan).toEqual(b(2));
    expect(lsmInstantRow({ completed: file(`${T}_${C}.clean`, b(1)), inflight: file(`${T}.clean.inflight`, b(3)) }).plan).toEqual(b(3));
  });

  test('a replacecommit or clustering: the inflight file when not empty, else the requested one', () => {
    expect(lsmInstantRow({ completed: file(`${T}_${C}.replacecommit`, b(1)), requested: file(`${T}.replacecommit.requested`, b(2)), inflight: file(`${T}.replacecommit.inflight`, b(3)) }).plan).toEqual(b(3));
    expect(lsmInstantRow({ completed: file(`${T}_${C}.replacecommit`, b(1)), requested: file(`${T}.replacecommit.requested`, b(2)), inflight: file(`${T}.replacecommit.inflight`, b()) }).plan).toEqual(b(2));
    const clustering = lsmInstantRow({ completed: file(`${T}_${C}.replacecommit`, b(1)), requested: file(`${T}.clustering.requested`, b(6)), inflight: file(`${T}.clustering.inflight`, b()) });
    expect([clustering.action, clustering.plan]).toEqual(['replacecommit', b(6)]);
  });

  test('a compaction completes as commit with its requested plan', () => {
    const row = lsmInstantRow({ completed: file(`${T}_${C}.commit`, b(1)), requested: file(`${T}.compaction.requested`, b(7)), inflight: file(`${T}.compaction.inflight`, b()) });
    expect([row.action, row.plan]).toEqual(['commit', b(7)]);
  });
});

describe('history data files', () => {
  const rows: LsmInstantRow[] = [
    { instantTime: T, completionTime: C, action: 'commit', metadata: b(1, 2, 3), plan: null, version: 1 },
    { instantTime: C, completionTime: null, action: 'clean', metadata: null, plan: b(4), version: 1 },
  ];

  test('rows round-trip, nulls included', async () => {
    expect(await decodeLsmFile(encodeLsmFile(rows), 'f')).toEqual(rows);
  });

  test('not parquet, or parquet without the instant columns: CORRUPT_FILE naming the file', async () => {
    expect((await failure(decodeLsmFile(b(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13), 'h/x.parquet'))).context.path).toBe('h/x.parquet');
    const other = parseAvroSchema({ type: 'record', name: 'o', fields: [{ name: 'instantTime', type: 'string' }] }) as AvroRecordSchema;
    const err = await failure(decodeLsmFile(writeBaseFile([{ instantTime: T }], { schema: other, populateMetaFields: false, bloomFilter: false }), 'h/y.parquet'));
    expect([err.code, err.context.path]).toEqual(['CORRUPT_FILE', 'h/y.parquet']);
  });
});

describe('archived entries from rows', () => {
  test('commit metadata and clean metadata/plan decode from the raw Avro bytes; the timeline keeps completion times', () => {
    const commit = serializeCommitMetadataAvro({ partitionToWriteStats: { p: [{ fileId: 'f1', path: 'p/f1_0-1-0_x.parquet', partitionPath: 'p', numWrites: 3, numDeletes: 0, numUpdateWrites: 0, numInserts: 3, totalWriteBytes: 10, fileSizeInBytes: 10 }] }, operationType: 'UPSERT' });
    const cleanPlan = serializeCleanerPlan({ policy: 'KEEP_LATEST_COMMITS', earliestInstantToRetain: { timestamp: T, action: 'commit', state: 'COMPLETED' }, filePathsToBeDeletedPerPartition: {} });
    const cleanMd = serializeCleanMetadata({ startCleanTime: C, timeTakenInMillis: 1, totalFilesDeleted: 0, earliestCommitToRetain: T, partitionMetadata: {} });
    const w = lsmArchivedEntry({ instantTime: T, completionTime: C, action: 'commit', metadata: commit, plan: null, version: 1 }, 'h/a.parquet');
    expect(w.commitMetadata?.partitionToWriteStats.p?.[0]?.fileId).toBe('f1');
    expect(w.commitMetadata?.operationType).toBe('UPSERT');
    const c = lsmArchivedEntry({ instantTime: C, completionTime: '20240101000000300', action: 'clean', metadata: cleanMd, plan: cleanPlan, version: 1 }, 'h/a.parquet');
    expect(c.cleanMetadata?.earliestCommitToRetain).toBe(T);
    expect(c.cleanerPlan?.earliestInstantToRetain?.timestamp).toBe(T);
    const timeline = new ArchivedTimeline([w, c]);
    expect(timeline.instants.map((i) => i.fileName)).toEqual([`${T}_${C}.commit`, `${C}_20240101000000300.clean`]);
    expect(timeline.completedWrites().map((i) => i.completionTime)).toEqual([C]);
  });

  test('metadata that does not decode is CORRUPT_FILE naming the history file', () => {
    let err: unknown;
    try {
      lsmArchivedEntry({ instantTime: T, completionTime: C, action: 'commit', metadata: b(0x4f, 0x62, 0x6a, 1, 0), plan: null, version: 1 }, 'h/bad.parquet');
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'CORRUPT_FILE', context: { path: 'h/bad.parquet' } });
  });
});
