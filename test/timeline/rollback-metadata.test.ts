// Rollback plan and metadata: the v6 MOR rollback fixture's `.rollback.requested` / `.rollback` parsed and
// re-serialized to identical bytes, defaults Hudi writes, and damaged files → CORRUPT_FILE.
import { describe, expect, it } from 'vitest';
import { LakeletError } from '../../src/errors.js';
import { readAvroContainer, writeAvroContainer } from '../../src/format/avro/container.js';
import {
  parseRollbackMetadata,
  parseRollbackPlan,
  serializeRollbackMetadata,
  serializeRollbackPlan,
} from '../../src/timeline/rollback-metadata.js';
import { zipEntry } from '../helpers/zip-entry.js';

const ZIP = 'sample_table/mor/parquet/v6_nonpartitioned_rollback.zip';
const requested = zipEntry(ZIP, '.hoodie/20250126040936578.rollback.requested');
const completed = zipEntry(ZIP, '.hoodie/20250126040936578.rollback');
/** The 16-byte sync marker right after a single-entry header: the last 16 bytes of the file. */
const syncOf = (bytes: Uint8Array): Uint8Array => bytes.subarray(bytes.length - 16);
const TABLE = '/opt/data/external_tables/v6_nonpartitioned_rollback';

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (err) {
    return err instanceof LakeletError ? err.code : 'not a LakeletError';
  }
  return undefined;
}

describe('HoodieRollbackPlan (.rollback.requested)', () => {
  const plan = parseRollbackPlan(requested, 'x.rollback.requested');

  it('parses the fixture plan', () => {
    expect(plan).toEqual({
      instantToRollback: { commitTime: '20250126040826878', action: 'deltacommit' },
      rollbackRequests: [
        {
          partitionPath: '',
          fileId: '',
          latestBaseInstant: '',
          filesToBeDeleted: [`${TABLE}/cd329d8f-0ce4-4654-84ab-2f769aae5034-0_1-33-44_20250126040826878.parquet`],
          logBlocksToBeDeleted: {},
        },
        {
          partitionPath: '',
          fileId: '0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0',
          latestBaseInstant: '20250126040823628',
          filesToBeDeleted: [],
          logBlocksToBeDeleted: { [`file:${TABLE}/.0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.1_0-33-43`]: 11828 },
        },
      ],
      version: 1,
    });
  });

  it('re-serializes to the fixture bytes with its sync marker', () => {
    expect(serializeRollbackPlan(plan, { syncMarker: syncOf(requested) })).toEqual(requested);
  });

  it('fills Hudi defaults ("" ids, empty lists and maps, version 1) and round-trips', () => {
    const bytes = serializeRollbackPlan({
      instantToRollback: { commitTime: '20250101000000000', action: 'commit' },
      rollbackRequests: [{ partitionPath: 'p=1', filesToBeDeleted: ['p=1/a.parquet'] }],
    });
    expect(parseRollbackPlan(bytes, 'p')).toEqual({
      instantToRollback: { commitTime: '20250101000000000', action: 'commit' },
      rollbackRequests: [{ partitionPath: 'p=1', fileId: '', latestBaseInstant: '', filesToBeDeleted: ['p=1/a.parquet'], logBlocksToBeDeleted: {} }],
      version: 1,
    });
    const schema = readAvroContainer(bytes).metadata['avro.schema'];
    expect(schema).toBe(readAvroContainer(requested).metadata['avro.schema']);
  });

  it('uses a fresh random sync marker by default', () => {
    const a = serializeRollbackPlan(plan);
    const b = serializeRollbackPlan(plan);
    expect(a.length).toBe(requested.length);
    expect(a).not.toEqual(b);
  });

  it('rejects a container of the wrong shape with CORRUPT_FILE', () => {
    const other = writeAvroContainer({ type: 'record', name: 'X', fields: [{ name: 'instantToRollback', type: 'string' }] }, [{ instantToRollback: 'x' }]);
    expect(codeOf(() => parseRollbackPlan(other, 'bad.rollback.requested'))).toBe('CORRUPT_FILE');
    expect(codeOf(() => parseRollbackPlan(requested.subarray(0, 200), 'cut.rollback.requested'))).toBe('CORRUPT_FILE');
  });
});

describe('HoodieRollbackMetadata (.rollback)', () => {
  const md = parseRollbackMetadata(completed, 'x.rollback');

  it('parses the fixture metadata', () => {
    expect(md).toEqual({
      startRollbackTime: '20250126040936578',
      timeTakenInMillis: 195,
      totalFilesDeleted: 1,
      commitsRollback: ['20250126040826878'],
      partitionMetadata: {
        '': {
          partitionPath: '',
          successDeleteFiles: [`${TABLE}/cd329d8f-0ce4-4654-84ab-2f769aae5034-0_1-33-44_20250126040826878.parquet`],
          failedDeleteFiles: [],
          rollbackLogFiles: { [`file:${TABLE}/.0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.2_1-0-1`]: 105 },
          logFilesFromFailedCommit: { [`file:${TABLE}/.0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.1_0-33-43`]: 11828 },
        },
      },
      version: 1,
      instantsRollback: [{ commitTime: '20250126040826878', action: 'deltacommit' }],
    });
  });

  it('re-serializes to the fixture bytes with its sync marker', () => {
    expect(serializeRollbackMetadata(md, { syncMarker: syncOf(completed) })).toEqual(completed);
  });

  it('fills Hudi defaults (empty lists and maps, version 1) and round-trips', () => {
    const bytes = serializeRollbackMetadata({
      startRollbackTime: '20250102000000000',
      timeTakenInMillis: 12,
      totalFilesDeleted: 2,
      commitsRollback: ['20250101000000000'],
      partitionMetadata: { '10': { partitionPath: '10', successDeleteFiles: ['10/a.parquet', '10/b.parquet'] } },
      instantsRollback: [{ commitTime: '20250101000000000', action: 'commit' }],
    });
    expect(parseRollbackMetadata(bytes, 'r')).toEqual({
      startRollbackTime: '20250102000000000',
      timeTakenInMillis: 12,
      totalFilesDeleted: 2,
      commitsRollback: ['20250101000000000'],
      partitionMetadata: {
        '10': { partitionPath: '10', successDeleteFiles: ['10/a.parquet', '10/b.parquet'], failedDeleteFiles: [], rollbackLogFiles: {}, logFilesFromFailedCommit: {} },
      },
      version: 1,
      instantsRollback: [{ commitTime: '20250101000000000', action: 'commit' }],
    });
  });

  it('rejects a plan given as metadata with CORRUPT_FILE', () => {
    expect(codeOf(() => parseRollbackMetadata(requested, 'plan-not-metadata.rollback'))).toBe('CORRUPT_FILE');
  });
});
