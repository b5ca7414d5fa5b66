// The layout-2 (v8/v9) commit metadata writers against Spark-written fixtures: the embedded writer schema is the
// exact string of the fixture's instant file of the same kind, and what we write decodes back to the values given
// (Hudi's shapes: `fileId ""` profile stats, log stats with logVersion/baseFile/logFiles, replace file ids).
import { describe, expect, test } from 'vitest';
import { readAvroContainer } from '../../src/format/avro/container.js';
import { parseCommitMetadata } from '../../src/timeline/commit-metadata.js';
import { parseRequestedReplaceMetadata } from '../../src/timeline/replace-metadata.js';
import { serializeCommitMetadataAvro, serializeRequestedReplaceMetadataAvro, serializeWorkloadProfileAvro } from '../../src/timeline/commit-metadata-avro.js';
import { fixtureStorage } from '../helpers/fixtures.js';

const COW = 'sample_table/cow/v9_txns_simple_nometa.zip';
const MOR = 'sample_table/mor/avro/v9_txns_simple_nometa.zip';
const V8 = 'sample_table/cow/v8_nonpartitioned.zip';

/** The embedded schema text of the fixture's first timeline file whose name ends with `suffix`. */
async function fixtureSchema(zip: string, suffix: string): Promise<string> {
  const storage = await fixtureStorage(zip);
  const files = (await storage.list('.hoodie/timeline')).filter((f) => f.kind === 'file' && f.path.endsWith(suffix) && f.size > 0);
  const first = files[0];
  if (!first) throw new Error(`no ${suffix} in ${zip}`);
  return readAvroContainer(await storage.read(first.path), first.path).metadata['avro.schema'] as string;
}

const schemaOf = (bytes: Uint8Array): string => readAvroContainer(bytes).metadata['avro.schema'] as string;
const recordOf = (bytes: Uint8Array): Record<string, unknown> => readAvroContainer(bytes).records[0] as Record<string, unknown>;

describe('layout-2 commit metadata (Avro)', () => {
  const stat = { fileId: 'f1-0', path: 'region=us/f1-0_0-1-0_20260101000000000.parquet', partitionPath: 'region=us', prevCommit: undefined, numWrites: 3, numDeletes: 0, numUpdateWrites: 1, numInserts: 2, totalWriteBytes: 1234, fileSizeInBytes: 1234 };

  test('a completed commit embeds the schema Hudi 1.1 and 1.0 write, and reads back', async () => {
    const bytes = serializeCommitMetadataAvro({ partitionToWriteStats: { 'region=us': [stat] }, extraMetadata: { schema: '{"type":"record"}' }, operationType: 'UPSERT' });
    expect(schemaOf(bytes)).toBe(await fixtureSchema(COW, '.commit'));
    expect(schemaOf(bytes)).toBe(await fixtureSchema(MOR, '.deltacommit'));
    expect(schemaOf(bytes)).toBe(await fixtureSchema(V8, '.commit'));
    const md = parseCommitMetadata(bytes, 'x');
    expect(md.operationType).toBe('UPSERT');
    expect(md.compacted).toBe(false);
    expect(md.extraMetadata).toEqual({ schema: '{"type":"record"}' });
    const s = md.partitionToWriteStats['region=us']?.[0];
    expect(s).toMatchObject({ fileId: 'f1-0', path: stat.path, prevCommit: 'null', numWrites: 3, numUpdateWrites: 1, numInserts: 2, totalWriteBytes: 1234 });
    const raw = recordOf(bytes);
    expect(raw.version).toBeNull();
    const rs = (raw.partitionToWriteStats as Record<string, Record<string, unknown>[]>)['region=us']?.[0];
    // A base-file write: no log fields; runtime stats present (zeros), as in the fixtures' commits.
    expect(rs?.logVersion).toBeNull();
    expect(rs?.logFiles).toBeNull();
    expect(rs?.runtimeStats).toEqual({ totalScanTime: 0n, totalCreateTime: 0n, totalUpsertTime: 0n });
  });

  test('a log write carries logVersion, baseFile and its log files', () => {
    const log = '.f1-0_20260101000000001.log.1_0-1-0';
    const bytes = serializeCommitMetadataAvro({ partitionToWriteStats: { p: [{ ...stat, path: `p/${log}`, partitionPath: 'p', prevCommit: '20260101000000001', logVersion: 1, logOffset: 0, baseFile: '', logFiles: [log] }] }, operationType: 'UPSERT' });
    const rs = (recordOf(bytes).partitionToWriteStats as Record<string, Record<string, unknown>[]>).p?.[0];
    expect(rs).toMatchObject({ logVersion: 1, logOffset: 0n, baseFile: '', logFiles: [log], prevCommit: '20260101000000001' });
  });

  test('a replacecommit embeds the HoodieReplaceCommitMetadata schema and lists replaced groups', async () => {
    const bytes = serializeCommitMetadataAvro({ partitionToWriteStats: { p: [stat] }, partitionToReplaceFileIds: { p: ['old-0', 'old2-0'] }, operationType: 'INSERT_OVERWRITE' });
    expect(schemaOf(bytes)).toBe(await fixtureSchema(MOR, '.replacecommit'));
    expect(parseCommitMetadata(bytes, 'x').partitionToReplaceFileIds).toEqual({ p: ['old-0', 'old2-0'] });
    // A partition delete writes no stats but still the replace record.
    const empty = serializeCommitMetadataAvro({ partitionToWriteStats: { p: [] }, partitionToReplaceFileIds: { p: ['old-0'] }, operationType: 'DELETE_PARTITION' });
    expect(schemaOf(empty)).toBe(await fixtureSchema(COW, '.replacecommit'));
  });

  test('the workload profile: the fixture inflight schema, a "" insert stat per partition, then one per group', async () => {
    const bytes = serializeWorkloadProfileAvro({ operationType: 'UPSERT', partitions: { 'region=us': { numInserts: 4, fileGroups: [{ fileId: 'g-0', prevCommit: '20260101000000000', numUpdateWrites: 1 }] } } });
    expect(schemaOf(bytes)).toBe(await fixtureSchema(COW, '.inflight'));
    expect(schemaOf(bytes)).toBe(await fixtureSchema(MOR, '.deltacommit.inflight'));
    const stats = (recordOf(bytes).partitionToWriteStats as Record<string, Record<string, unknown>[]>)['region=us'] ?? [];
    expect(stats.map((s) => [s.fileId, s.prevCommit, s.numInserts, s.numUpdateWrites, s.path, s.partitionPath, s.runtimeStats])).toEqual([
      ['', 'null', 4n, 0n, null, null, null],
      ['g-0', '20260101000000000', 0n, 1n, null, null, null],
    ]);
  });

  test('the requested replace plan of an insert overwrite: all null, the fixture schema', async () => {
    const bytes = serializeRequestedReplaceMetadataAvro({});
    expect(schemaOf(bytes)).toBe(await fixtureSchema(MOR, '.replacecommit.requested'));
    expect(schemaOf(bytes)).toBe(await fixtureSchema(COW, '.clustering.requested'));
    expect(recordOf(bytes)).toEqual({ operationType: null, clusteringPlan: null, extraMetadata: null, version: null });
    expect(parseRequestedReplaceMetadata(bytes, 'x').operationType).toBeNull();
  });
});
