// validateTable: every fixture validates clean (the three MDT fixtures through every check, the others through
// files-exist only); then copies damaged one way each report exactly that damage, under the check that finds it.
// MDT damage is written with our own record and log-block builders (metadata/*), as a further log file of an MDT
// deltacommit whose data instant completed, so the MDT reader merges it on top of Spark's records.
import { describe, expect, it } from 'vitest';
import { openTable, validateTable, type ValidationProblem } from '../../src/index.js';
import { TableState } from '../../src/engine/table-state.js';
import { readColumnStats } from '../../src/engine/metadata/metadata-reads.js';
import { baseFileName, logFileName, parseBaseFileName, parseLogFileName } from '../../src/file-group/file-names.js';
import { baseName, instantFilePath, parentPath } from '../../src/layout.js';
import { serializeCleanerPlan } from '../../src/timeline/clean-metadata.js';
import { columnStatsRecords } from '../../src/metadata/column-stats.js';
import { filesPartitionRecords } from '../../src/metadata/files-partition.js';
import { metadataFileGroupIndex, partitionStatsKey } from '../../src/metadata/keys.js';
import { metadataLogFileBytes } from '../../src/metadata/metadata-log-blocks.js';
import { metadataFileGroupId } from '../../src/metadata/metadata-partitions.js';
import { emptyMetadataRecord, METADATA_RECORD_TYPE, type HoodieMetadataRecord } from '../../src/metadata/metadata-record.js';
import { recordIndexRecord } from '../../src/metadata/record-index.js';
import type { Storage } from '../../src/storage/storage.js';
import { collect, fixtureCopy, fixtureStorage, openFixture } from '../helpers/fixtures.js';

const COW9 = 'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip';
const MOR9 = 'sample_table/mor/avro/v9_nonpartitioned_rollback.zip';
const MOR8 = 'quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip';
const MDT_FIXTURES = [COW9, MOR9, MOR8];
const OTHER_FIXTURES = [
  'quickstart_trips_table/mor/avro/v6_trips_8i1u.zip',
  'sample_table/cow/v6_nonpartitioned.zip',
  'sample_table/cow/v6_simplekeygen_hivestyle_no_metafields.zip',
  'sample_table/cow/v6_empty.zip',
  'sample_table/cow/v9_txns_simple_nometa.zip',
  'sample_table/cow/v6_complexkeygen_hivestyle.zip',
  'sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip',
  'sample_table/cow/v8_nonpartitioned.zip',
  'sample_table/mor/parquet/v6_nonpartitioned.zip',
  'sample_table/mor/parquet/v6_nonpartitioned_rollback.zip',
  'sample_table/mor/avro/v9_txns_simple_nometa.zip',
];
const ALL_CHECKS = ['files-exist', 'files-partition', 'record-index', 'column-stats', 'partition-stats', 'metadata-structure'];
const MDT = '.hoodie/metadata';

/** Check and path of each problem (messages are asserted where they matter). */
const found = (problems: readonly ValidationProblem[]) => problems.map((p) => ({ check: p.check, path: p.path }));

/** The latest slices of a table copy (for picking files to damage). */
async function latestSlices(storage: Storage) {
  return (await (await TableState.load(storage)).fileSystemView()).latestSlices();
}

/**
 * Append one more log file to MDT file group `fileId` of `partition`, under the newest MDT deltacommit whose data
 * instant completed (the reader trusts it), holding `upserts` as an HFILE_DATA block.
 */
async function appendMetadataLog(storage: Storage, partition: string, fileGroup: number, upserts: HoodieMetadataRecord[]): Promise<string> {
  const state = await TableState.load(storage);
  const dataInstant = state.timeline.completedWrites().at(-1)?.requestedTime as string;
  const fileId = metadataFileGroupId(partition, fileGroup);
  const versions = (await storage.list(`${MDT}/${partition}`)).map((f) => parseLogFileName(baseName(f.path))).filter((l) => l?.fileId === fileId && l.instantTime === dataInstant).map((l) => l?.version ?? 0);
  const path = `${MDT}/${partition}/${logFileName(fileId, dataInstant, Math.max(0, ...versions) + 1, '9-9-9')}`;
  const sorted = [...upserts].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  await storage.write(path, metadataLogFileBytes({ partition, fileGroup, fileId, upserts: sorted, deletes: [] }, { instantTime: dataInstant, version: state.config.version === 8 ? 8 : 9 }));
  return path;
}

describe('validateTable on the fixtures', () => {
  for (const zip of MDT_FIXTURES) {
    it(`finds nothing wrong with ${zip}, running every check its MDT lists`, async () => {
      const result = await validateTable(await fixtureStorage(zip));
      expect(result.problems).toEqual([]);
      expect(result.ok).toBe(true);
      // The non-partitioned MOR fixture has no partition_stats partition (Hudi builds none without partitions).
      expect(result.checked).toEqual(zip === MOR9 ? ALL_CHECKS.filter((c) => c !== 'partition-stats') : ALL_CHECKS);
    });
  }

  for (const zip of OTHER_FIXTURES) {
    it(`finds nothing wrong with ${zip} (no metadata table: files-exist only)`, async () => {
      const result = await validateTable(await fixtureStorage(zip));
      expect(result).toEqual({ ok: true, problems: [], checked: ['files-exist'] });
    });
  }

  it('takes an opened Table as well as a storage', async () => {
    const result = await validateTable(await openFixture(COW9));
    expect(result.ok).toBe(true);
    expect(result.checked).toEqual(ALL_CHECKS);
  });

  it('refuses (UNSUPPORTED) the metadata table of a version-6 table rather than guessing its records', async () => {
    const storage = await fixtureCopy('sample_table/cow/v6_nonpartitioned.zip');
    const props = new TextDecoder().decode(await storage.read('.hoodie/hoodie.properties'));
    await storage.write('.hoodie/hoodie.properties', new TextEncoder().encode(`${props.trimEnd()}\nhoodie.table.metadata.partitions=files\n`));
    await expect(validateTable(storage)).rejects.toMatchObject({ code: 'UNSUPPORTED', context: { field: 'hoodie.table.version', value: 6 } });
  });

  it('runs only the checks asked for', async () => {
    const result = await validateTable(await fixtureStorage(COW9), { checks: ['record-index'] });
    expect(result).toEqual({ ok: true, problems: [], checked: ['record-index'] });
  });
});

describe('validateTable on damaged copies', () => {
  it('reports a deleted data file as missing (files-exist) and as listed by the MDT only (files-partition)', async () => {
    const storage = await fixtureCopy(COW9);
    const victim = (await latestSlices(storage)).find((s) => s.baseFile)?.baseFile?.path as string;
    await storage.delete(victim);
    const result = await validateTable(storage);
    expect(result.ok).toBe(false);
    expect(found(result.problems)).toEqual([{ check: 'files-exist', path: victim }, { check: 'files-partition', path: victim }]);
    expect(result.problems[1]?.message).toContain('storage holds no committed file');
    // The checks that read data files do not run while a live file is missing.
    expect(result.checked).toEqual(['files-exist', 'files-partition', 'metadata-structure']);
  });

  it('leaves out the files a pending clean plans to delete (some already gone), as Hudi does', async () => {
    const storage = await fixtureCopy(COW9);
    const state = await TableState.load(storage);
    const view = await state.fileSystemView();
    const latest = new Set(view.latestSlices().map((s) => s.baseFile?.path));
    const old = view.fileGroups().flatMap((g) => g.slices).map((s) => s.baseFile?.path).find((p) => p !== undefined && !latest.has(p)) as string;
    expect(old).toBeDefined();
    await storage.delete(old);
    expect(found((await validateTable(storage)).problems)).toEqual([{ check: 'files-partition', path: old }]);
    const plan = serializeCleanerPlan({ policy: 'KEEP_LATEST_COMMITS', filePathsToBeDeletedPerPartition: { [parentPath(old)]: [old] } });
    await storage.write(instantFilePath(state.config, '20270101000000000', 'clean', 'REQUESTED'), plan);
    expect(await validateTable(storage)).toEqual({ ok: true, problems: [], checked: ALL_CHECKS });
  });

  it('reports a committed-looking file the files partition does not list', async () => {
    const storage = await fixtureCopy(COW9);
    const state = await TableState.load(storage);
    // An older base file of a live file group, named after a completed commit before the group's latest base:
    // not part of the latest snapshot, so only the files partition comparison can see it.
    const slice = (await latestSlices(storage)).find((s) => s.baseFile && state.timeline.completedWrites().some((i) => i.requestedTime < s.baseInstantTime));
    expect(slice).toBeDefined();
    const older = state.timeline.completedWrites().find((i) => i.requestedTime < (slice?.baseInstantTime as string))?.requestedTime as string;
    const extra = `${slice?.partitionPath}/${baseFileName(slice?.fileId as string, '0-1-2', older)}`;
    const bytes = await storage.read(slice?.baseFile?.path as string);
    await storage.write(extra, bytes);
    const result = await validateTable(storage);
    expect(result.problems).toEqual([{ check: 'files-partition', path: extra, message: `committed file (${bytes.length} bytes) is missing from the files partition` }]);
  });

  it('reports a file whose size in the files partition differs from storage', async () => {
    const storage = await fixtureCopy(COW9);
    const base = (await latestSlices(storage)).find((s) => s.baseFile)?.baseFile;
    if (!base) throw new Error('no base file');
    const size = (await storage.head(base.path)).size;
    // Sizes merge by max, so a larger size in a newer log block wins.
    await appendMetadataLog(storage, 'files', 0, filesPartitionRecords([{ partitionPath: base.partitionPath, added: { [base.name]: size + 100 } }]));
    const result = await validateTable(storage);
    expect(result.problems).toEqual([{ check: 'files-partition', path: base.path, message: `the files partition says ${size + 100} bytes, storage holds ${size}` }]);
  });

  it('reports partitions the files partition names wrongly: one storage lacks, one dropped from __all_partitions__', async () => {
    const storage = await fixtureCopy(COW9);
    const dropped = '2024/01/16/09';
    const held = (await storage.list(dropped)).filter((f) => f.path.endsWith('.parquet')).map((f) => f.path);
    expect(held.length).toBeGreaterThan(0);
    await appendMetadataLog(storage, 'files', 0, filesPartitionRecords([{ partitionPath: 'ghost/partition' }], [dropped]));
    const result = await validateTable(storage, { checks: ['files-partition'] });
    expect(found(result.problems)).toEqual([
      { check: 'files-partition', path: dropped }, // its file-list record is not named by __all_partitions__
      { check: 'files-partition', path: dropped }, // it holds committed files
      ...held.map((path) => ({ check: 'files-partition', path })),
      { check: 'files-partition', path: 'ghost/partition' },
    ]);
    expect(result.problems[0]?.message).toContain('does not name it');
    expect(result.problems.at(-1)?.message).toContain('which storage does not have');
  });

  it('reports a dropped MDT files log: the files its deltacommit added are missing from the MDT', async () => {
    const storage = await fixtureCopy(COW9);
    const log = (await storage.list(`${MDT}/files`)).map((f) => f.path).find((p) => p.includes('20260403183846789')) as string;
    await storage.delete(log);
    const result = await validateTable(storage);
    // The last commit wrote one new base file in 2024/01/15/11 (metadata-read.test.ts names it).
    expect(found(result.problems)).toEqual([{ check: 'files-partition', path: '2024/01/15/11/73a81ee8-5d9c-420e-bab2-4626f8756100-0_0-93-281_20260403183846789.parquet' }]);
  });

  it('reports a record-index entry pointing at the wrong file group', async () => {
    const storage = await fixtureCopy(MOR8);
    const row = (await collect((await openTable(storage)).rows()))[0] as Record<string, unknown>;
    const key = String(row._hoodie_record_key);
    const partition = String(row._hoodie_partition_path);
    const held = parseBaseFileName(String(row._hoodie_file_name))?.fileId ?? String(row._hoodie_file_name);
    const other = (await latestSlices(storage)).find((s) => s.fileId !== held)?.fileId as string;
    await appendMetadataLog(storage, 'record_index', metadataFileGroupIndex(key, 10), [recordIndexRecord(key, partition, other, 0)]);
    const result = await validateTable(storage);
    expect(result.problems).toEqual([{
      check: 'record-index', path: key,
      message: `the record index points at file group ${other} of partition ${JSON.stringify(partition)}, but file group ${held} of partition ${JSON.stringify(partition)} holds the key`,
    }]);
  });

  it('reports a record-index entry for a key the data lacks, and a key the index lacks', async () => {
    const storage = await fixtureCopy(COW9);
    const slice = (await latestSlices(storage))[0];
    await appendMetadataLog(storage, 'record_index', metadataFileGroupIndex('no-such-key', 10), [recordIndexRecord('no-such-key', slice?.partitionPath ?? '', slice?.fileId ?? '', 0)]);
    const result = await validateTable(storage, { checks: ['record-index'] });
    expect(found(result.problems)).toEqual([{ check: 'record-index', path: 'no-such-key' }]);
    expect(result.problems[0]?.message).toContain('the latest snapshot has no such key');
  });

  it('reports a column-stats record with a wrong max', async () => {
    const storage = await fixtureCopy(COW9);
    const base = (await latestSlices(storage)).find((s) => s.baseFile)?.baseFile;
    if (!base) throw new Error('no base file');
    const stats = (await readColumnStats(storage, '_hoodie_record_key'))?.find((s) => s.fileName === base.name);
    if (!stats) throw new Error('no column stats');
    const wrong = { ...stats, maxValue: { wrapper: 'StringWrapper' as const, value: 'zzzz-not-the-max' } };
    const [record] = columnStatsRecords(base.partitionPath, [wrong]);
    if (!record) throw new Error('no record');
    await appendMetadataLog(storage, 'column_stats', metadataFileGroupIndex(record.key, 2), [record]);
    const result = await validateTable(storage);
    expect(found(result.problems)).toEqual([{ check: 'column-stats', path: base.path }]);
    expect(result.problems[0]?.message).toContain('column "_hoodie_record_key"');
    expect(result.problems[0]?.message).toContain('maxValue');
    expect(result.problems[0]?.message).not.toContain('minValue');
  });

  it('reports a partition-stats record with a wrong max', async () => {
    const storage = await fixtureCopy(MOR8);
    const stats = (await readColumnStats(storage, '_hoodie_record_key', { partition: 'partition_stats' }))?.[0];
    if (!stats) throw new Error('no partition stats');
    const partition = stats.fileName as string;
    const record = emptyMetadataRecord(partitionStatsKey('_hoodie_record_key', partition), METADATA_RECORD_TYPE.PARTITION_STATS);
    record.columnStatsMetadata = { ...stats, maxValue: { wrapper: 'StringWrapper', value: 'zzzz-not-the-max' } };
    await appendMetadataLog(storage, 'partition_stats', 0, [record]);
    const result = await validateTable(storage);
    expect(found(result.problems)).toEqual([{ check: 'partition-stats', path: partition }]);
    expect(result.problems[0]?.message).toContain('maxValue');
  });

  it('reports a deleted log file of a merge-on-read slice', async () => {
    const storage = await fixtureCopy(MOR8);
    const log = (await latestSlices(storage)).flatMap((s) => s.logFiles).at(-1)?.path as string;
    expect(log).toBeDefined();
    await storage.delete(log);
    const result = await validateTable(storage);
    expect(found(result.problems)).toEqual([{ check: 'files-exist', path: log }, { check: 'files-partition', path: log }]);
  });

  it('reports a record-index file group that owns no file, and the keys it held', async () => {
    const storage = await fixtureCopy(MOR8);
    const keys = (await collect((await openTable(storage)).rows())).map((r) => String(r._hoodie_record_key));
    const group = [...Array(10).keys()].find((g) => keys.some((k) => metadataFileGroupIndex(k, 10) === g && g < 9)) as number;
    const fileId = metadataFileGroupId('record_index', group);
    for (const f of await storage.list(`${MDT}/record_index`)) if (baseName(f.path).includes(fileId)) await storage.delete(f.path);
    const result = await validateTable(storage);
    const lost = keys.filter((k) => metadataFileGroupIndex(k, 10) === group);
    expect(lost.length).toBeGreaterThan(0);
    expect(found(result.problems)).toEqual([
      ...lost.map((k) => ({ check: 'record-index', path: k })),
      { check: 'metadata-structure', path: `${MDT}/record_index/${fileId}` },
    ]);
    expect(result.problems.at(-1)?.message).toContain(`file group ${group} of 10 owns no file`);
  });

  it('reports a partition listed in hoodie.table.metadata.partitions that the MDT lacks, and one it holds unlisted', async () => {
    const storage = await fixtureCopy(COW9);
    const props = new TextDecoder().decode(await storage.read('.hoodie/hoodie.properties'));
    const line = 'hoodie.table.metadata.partitions=column_stats,files,partition_stats,record_index';
    expect(props).toContain(line);
    await storage.write('.hoodie/hoodie.properties', new TextEncoder().encode(props.replace(line, 'hoodie.table.metadata.partitions=bloom_filters,column_stats,files,record_index')));
    const result = await validateTable(storage);
    expect(result.problems).toEqual([
      { check: 'metadata-structure', path: `${MDT}/bloom_filters`, message: 'hoodie.table.metadata.partitions lists bloom_filters, but the metadata table has no files in it' },
      { check: 'metadata-structure', path: `${MDT}/partition_stats`, message: 'the metadata table holds partition partition_stats, which hoodie.table.metadata.partitions does not list (a stale index)' },
    ]);
  });

  it('reports a completed MDT deltacommit whose data instant does not exist', async () => {
    const storage = await fixtureCopy(COW9);
    await storage.write(`${MDT}/.hoodie/timeline/20270101000000000_20270101000000001.deltacommit`, new Uint8Array());
    const result = await validateTable(storage);
    expect(found(result.problems)).toEqual([{ check: 'metadata-structure', path: '20270101000000000' }]);
  });

  it('does not report an MDT deltacommit whose data instant is still pending (a crash between the two; readers ignore it)', async () => {
    const storage = await fixtureCopy(COW9);
    const state = await TableState.load(storage);
    const last = state.timeline.completedWrites().at(-1);
    if (!last) throw new Error('no write');
    // The data commit never completed: its inflight stays, the MDT deltacommit of the same time is complete.
    await storage.delete(state.instantPath(last));
    const mdtTimeline = (await storage.list(`${MDT}/.hoodie/timeline`)).map((f) => baseName(f.path));
    expect(mdtTimeline).toContain('20260403183846789_20260403183847312.deltacommit');
    expect(await validateTable(storage)).toEqual({ ok: true, problems: [], checked: ALL_CHECKS });
  });

  it('reports an MDT record in the file group its key does not hash to', async () => {
    const storage = await fixtureCopy(COW9);
    const slice = (await latestSlices(storage))[0];
    const key = 'misplaced-key';
    const wrongGroup = (metadataFileGroupIndex(key, 10) + 1) % 10;
    await appendMetadataLog(storage, 'record_index', wrongGroup, [recordIndexRecord(key, slice?.partitionPath ?? '', slice?.fileId ?? '', 0)]);
    const result = await validateTable(storage, { checks: ['metadata-structure'] });
    expect(result.problems).toEqual([{ check: 'metadata-structure', path: key, message: `the record_index key sits in file group ${metadataFileGroupId('record_index', wrongGroup)}, but its hash picks ${metadataFileGroupId('record_index', metadataFileGroupIndex(key, 10))}` }]);
  });

  it('reports a metadata table whose hoodie.properties is missing', async () => {
    const storage = await fixtureCopy(COW9);
    await storage.delete(`${MDT}/.hoodie/hoodie.properties`);
    const result = await validateTable(storage);
    expect(found(result.problems)).toEqual([{ check: 'metadata-structure', path: `${MDT}/.hoodie/hoodie.properties` }]);
    expect(result.checked).toEqual(['files-exist', 'metadata-structure']);
  });

  it('reports an unreadable MDT log as a problem naming it, not a thrown error', async () => {
    const storage = await fixtureCopy(COW9);
    const log = (await storage.list(`${MDT}/files`)).map((f) => f.path).find((p) => p.includes('20260403183842444')) as string;
    const bytes = await storage.read(log);
    await storage.write(log, bytes.subarray(0, bytes.length - 20));
    const result = await validateTable(storage, { checks: ['files-partition'] });
    expect(found(result.problems)).toEqual([{ check: 'files-partition', path: log }]);
  });
});
