// Clean timeline files: HoodieCleanerPlan / HoodieCleanMetadata round trips, Hudi's writer schemas in the
// header, absolute paths in Hudi-written plans, version-1 plans, and corrupt files.
import { describe, expect, test } from 'vitest';
import { isLakeletError } from '../../src/errors.js';
import { readAvroContainer, writeAvroContainer } from '../../src/format/avro/container.js';
import {
  parseCleanerPlan,
  parseCleanMetadata,
  serializeCleanerPlan,
  serializeCleanMetadata,
} from '../../src/timeline/clean-metadata.js';
import { CLEAN_METADATA_SCHEMA, CLEANER_PLAN_SCHEMA } from '../../src/timeline/clean-schemas.js';

const plan = {
  earliestInstantToRetain: { timestamp: '20240101000000005', action: 'commit', state: 'COMPLETED' },
  lastCompletedCommitTimestamp: '20240101000000009',
  policy: 'KEEP_LATEST_COMMITS',
  filePathsToBeDeletedPerPartition: {
    'part=x': ['part=x/f1-0_0-0-0_20240101000000001.parquet', 'part=x/f1-0_0-0-0_20240101000000002.parquet'],
    '': ['f2-0_0-0-0_20240101000000001.parquet'],
  },
  partitionsToBeDeleted: ['part=z'],
};

describe('cleaner plan', () => {
  test('round-trips and carries Hudi\'s schema (with avro.java.string) in the header', () => {
    const bytes = serializeCleanerPlan(plan);
    const container = readAvroContainer(bytes, 'p');
    expect(JSON.parse(container.metadata['avro.schema'] as string)).toEqual(JSON.parse(JSON.stringify(CLEANER_PLAN_SCHEMA)));
    expect(container.metadata['avro.schema']).toContain('"avro.java.string":"String"');
    expect(container.metadata['avro.codec']).toBeUndefined();
    const parsed = parseCleanerPlan(bytes, 'p');
    expect(parsed.earliestInstantToRetain).toEqual(plan.earliestInstantToRetain);
    expect(parsed.lastCompletedCommitTimestamp).toBe('20240101000000009');
    expect(parsed.policy).toBe('KEEP_LATEST_COMMITS');
    expect(parsed.version).toBe(2);
    expect(parsed.partitionsToBeDeleted).toEqual(['part=z']);
    expect(parsed.filePathsToBeDeletedPerPartition['part=x']?.map((f) => f.filePath)).toEqual(plan.filePathsToBeDeletedPerPartition['part=x']);
    expect(parsed.filePathsToBeDeletedPerPartition['']).toEqual([{ filePath: 'f2-0_0-0-0_20240101000000001.parquet', isBootstrapBaseFile: false }]);
  });

  test('a plan without an earliest instant (KEEP_LATEST_FILE_VERSIONS in Hudi) parses as undefined', () => {
    const parsed = parseCleanerPlan(serializeCleanerPlan({ policy: 'KEEP_LATEST_FILE_VERSIONS', filePathsToBeDeletedPerPartition: {} }), 'p');
    expect(parsed.earliestInstantToRetain).toBeUndefined();
    expect(parsed.filePathsToBeDeletedPerPartition).toEqual({});
    expect(parsed.partitionsToBeDeleted).toEqual([]);
  });

  test('absolute paths written by Hudi become table-relative paths', () => {
    const record = {
      earliestInstantToRetain: null,
      lastCompletedCommitTimestamp: '',
      policy: 'KEEP_LATEST_COMMITS',
      filesToBeDeletedPerPartition: null,
      version: 2,
      filePathsToBeDeletedPerPartition: { 'a/b': [{ filePath: 's3a://bucket/tbl/a/b/g-0_1-2-3_20240101000000001.parquet', isBootstrapBaseFile: false }] },
      partitionsToBeDeleted: null,
    };
    const parsed = parseCleanerPlan(writeAvroContainer(JSON.stringify(CLEANER_PLAN_SCHEMA), [record]), 'p');
    expect(parsed.filePathsToBeDeletedPerPartition['a/b']?.[0]?.filePath).toBe('a/b/g-0_1-2-3_20240101000000001.parquet');
  });

  test('version-1 plans (file names per partition) parse', () => {
    const record = {
      earliestInstantToRetain: null, lastCompletedCommitTimestamp: '', policy: 'KEEP_LATEST_COMMITS',
      filesToBeDeletedPerPartition: { p: ['old-0_0-0-0_20230101000000000.parquet'] }, version: 1, filePathsToBeDeletedPerPartition: null, partitionsToBeDeleted: null,
    };
    const parsed = parseCleanerPlan(writeAvroContainer(JSON.stringify(CLEANER_PLAN_SCHEMA), [record]), 'p');
    expect(parsed.version).toBe(1);
    expect(parsed.filePathsToBeDeletedPerPartition.p?.[0]?.filePath).toBe('p/old-0_0-0-0_20230101000000000.parquet');
  });

  test('bad bytes and bad shapes are CORRUPT_FILE naming the file', () => {
    const bad = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return isLakeletError(err, 'CORRUPT_FILE') && err.message.includes('x.clean.requested');
      }
      return false;
    };
    expect(bad(() => parseCleanerPlan(new Uint8Array([1, 2, 3]), 'x.clean.requested'))).toBe(true);
    const two = writeAvroContainer(JSON.stringify(CLEANER_PLAN_SCHEMA), [
      { policy: 'a', version: 2, lastCompletedCommitTimestamp: '' },
      { policy: 'b', version: 2, lastCompletedCommitTimestamp: '' },
    ]);
    expect(bad(() => parseCleanerPlan(two, 'x.clean.requested'))).toBe(true);
  });
});

describe('clean metadata', () => {
  test('round-trips with Hudi\'s schema', () => {
    const bytes = serializeCleanMetadata({
      startCleanTime: '20240101000000010',
      timeTakenInMillis: 12,
      totalFilesDeleted: 3,
      earliestCommitToRetain: '20240101000000005',
      lastCompletedCommitTimestamp: '20240101000000009',
      partitionMetadata: {
        'part=x': { partitionPath: 'part=x', policy: 'KEEP_LATEST_COMMITS', successDeleteFiles: ['a.parquet', 'b.parquet'] },
        'part=z': { partitionPath: 'part=z', policy: 'KEEP_LATEST_COMMITS', successDeleteFiles: ['c.parquet'], isPartitionDeleted: true },
      },
    });
    const container = readAvroContainer(bytes, 'm');
    expect(JSON.parse(container.metadata['avro.schema'] as string)).toEqual(JSON.parse(JSON.stringify(CLEAN_METADATA_SCHEMA)));
    const md = parseCleanMetadata(bytes, 'm');
    expect(md).toEqual({
      startCleanTime: '20240101000000010',
      timeTakenInMillis: 12,
      totalFilesDeleted: 3,
      earliestCommitToRetain: '20240101000000005',
      lastCompletedCommitTimestamp: '20240101000000009',
      version: 2,
      partitionMetadata: {
        'part=x': { partitionPath: 'part=x', policy: 'KEEP_LATEST_COMMITS', deletePathPatterns: ['a.parquet', 'b.parquet'], successDeleteFiles: ['a.parquet', 'b.parquet'], failedDeleteFiles: [], isPartitionDeleted: false },
        'part=z': { partitionPath: 'part=z', policy: 'KEEP_LATEST_COMMITS', deletePathPatterns: ['c.parquet'], successDeleteFiles: ['c.parquet'], failedDeleteFiles: [], isPartitionDeleted: true },
      },
    });
  });

  test('a missing required field is CORRUPT_FILE', () => {
    const schema = { type: 'record', name: 'HoodieCleanMetadata', namespace: 'org.apache.hudi.avro.model', fields: [{ name: 'timeTakenInMillis', type: 'long' }] };
    expect(() => parseCleanMetadata(writeAvroContainer(schema, [{ timeTakenInMillis: 1n }]), 'y.clean')).toThrow(/startCleanTime.*y\.clean/);
  });
});
