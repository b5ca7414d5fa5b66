// HoodieRestorePlan (`<r>.restore.requested`) and HoodieRestoreMetadata (`<r>.restore`): round trips, the
// embedded writer schemas (HoodieInstantInfo defined once, nested rollback metadata), older and newer
// schema variants, and damaged files → CORRUPT_FILE.
import { describe, expect, it } from 'vitest';
import { LakeletError } from '../../src/errors.js';
import { parseAvroSchema } from '../../src/format/avro/schema.js';
import { readAvroContainer, writeAvroContainer } from '../../src/format/avro/container.js';
import {
  parseRestoreMetadata,
  parseRestorePlan,
  RESTORE_METADATA_SCHEMA,
  RESTORE_PLAN_SCHEMA,
  serializeRestoreMetadata,
  serializeRestorePlan,
  type RestoreMetadata,
} from '../../src/timeline/restore-metadata.js';
import type { RollbackMetadata } from '../../src/timeline/rollback-metadata.js';

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (err) {
    return err instanceof LakeletError ? err.code : 'not a LakeletError';
  }
  return undefined;
}

const INSTANTS = [
  { commitTime: '20240418173553000', action: 'commit' },
  { commitTime: '20240418173552000', action: 'replacecommit' },
];

const rollback = (time: string, target: string, action: string): RollbackMetadata => ({
  startRollbackTime: time,
  timeTakenInMillis: 12,
  totalFilesDeleted: 1,
  commitsRollback: [target],
  partitionMetadata: {
    'p=1': { partitionPath: 'p=1', successDeleteFiles: [`p=1/f-0_0-0-0_${target}.parquet`], failedDeleteFiles: [], rollbackLogFiles: {}, logFilesFromFailedCommit: {} },
  },
  version: 1,
  instantsRollback: [{ commitTime: target, action }],
});

const SAMPLE: RestoreMetadata = {
  startRestoreTime: '20240418173554000',
  timeTakenInMillis: 345,
  instantsToRollback: ['20240418173553000', '20240418173552000'],
  hoodieRestoreMetadata: {
    '20240418173553000': [rollback('20240418173554001', '20240418173553000', 'commit')],
    '20240418173552000': [rollback('20240418173554002', '20240418173552000', 'replacecommit')],
  },
  version: 1,
  restoreInstantInfo: INSTANTS,
};

describe('HoodieRestorePlan', () => {
  it('round-trips, newest first, with version 2 and the savepoint', () => {
    const bytes = serializeRestorePlan({ instantsToRollback: INSTANTS, savepointToRestoreTimestamp: '20240418173551000' });
    expect(parseRestorePlan(bytes, 'x.restore.requested')).toEqual({ instantsToRollback: INSTANTS, version: 2, savepointToRestoreTimestamp: '20240418173551000' });
    expect(parseRestorePlan(serializeRestorePlan({ instantsToRollback: [], savepointToRestoreTimestamp: null, version: 1 }), 'x')).toEqual({ instantsToRollback: [], version: 1, savepointToRestoreTimestamp: null });
  });

  it('embeds Hudi’s schema with HoodieInstantInfo defined inline', () => {
    const { metadata } = readAvroContainer(serializeRestorePlan({ instantsToRollback: INSTANTS, savepointToRestoreTimestamp: '1' }));
    expect(metadata['avro.schema']).toBe(JSON.stringify(RESTORE_PLAN_SCHEMA));
    expect(metadata['avro.schema']).toContain('"namespace":"org.apache.hudi.avro.model"');
    expect(metadata['avro.schema']).toContain('"name":"HoodieInstantInfo"');
  });

  it('reads version-1 plans that have no savepoint field', () => {
    const { fields, ...rest } = RESTORE_PLAN_SCHEMA;
    const v1 = { ...rest, fields: fields.filter((f) => f.name !== 'savepointToRestoreTimestamp') };
    const bytes = writeAvroContainer(JSON.stringify(v1), [{ instantsToRollback: INSTANTS, version: 1 }]);
    expect(parseRestorePlan(bytes, 'v1')).toEqual({ instantsToRollback: INSTANTS, version: 1, savepointToRestoreTimestamp: null });
  });

  it('damaged plans → CORRUPT_FILE', () => {
    const bytes = serializeRestorePlan({ instantsToRollback: INSTANTS, savepointToRestoreTimestamp: '1' });
    expect(codeOf(() => parseRestorePlan(bytes.subarray(0, bytes.length - 20), 'cut'))).toBe('CORRUPT_FILE');
    const bad = writeAvroContainer(JSON.stringify({ type: 'record', name: 'X', fields: [{ name: 'instantsToRollback', type: { type: 'array', items: 'string' } }] }), [{ instantsToRollback: ['1'] }]);
    expect(codeOf(() => parseRestorePlan(bad, 'bad'))).toBe('CORRUPT_FILE');
  });
});

describe('HoodieRestoreMetadata', () => {
  it('round-trips, nested rollback metadata included', () => {
    const bytes = serializeRestoreMetadata(SAMPLE);
    expect(parseRestoreMetadata(bytes, 'x.restore')).toEqual(SAMPLE);
  });

  it('embeds a schema our Avro parser accepts: rollback metadata nested once, HoodieInstantInfo referenced by name', () => {
    const text = readAvroContainer(serializeRestoreMetadata(SAMPLE)).metadata['avro.schema'] ?? '';
    expect(text).toBe(JSON.stringify(RESTORE_METADATA_SCHEMA));
    expect(() => parseAvroSchema(text)).not.toThrow();
    expect(text.match(/"name":"HoodieInstantInfo"/g)).toHaveLength(1);
    expect(text).toContain('"items":"HoodieInstantInfo"');
    expect(text.match(/"namespace"/g)).toHaveLength(1);
    expect(text).toContain('"name":"HoodieRollbackMetadata"');
  });

  it('defaults: version 1, empty restoreInstantInfo; an instant without rollbacks', () => {
    const md = parseRestoreMetadata(serializeRestoreMetadata({ startRestoreTime: '1', timeTakenInMillis: 0, instantsToRollback: ['2'], hoodieRestoreMetadata: { '2': [] } }), 'x');
    expect(md).toEqual({ startRestoreTime: '1', timeTakenInMillis: 0, instantsToRollback: ['2'], hoodieRestoreMetadata: { '2': [] }, version: 1, restoreInstantInfo: [] });
  });

  it('reads the newer schema with extraMetadata, and null array entries', () => {
    const { fields, ...rest } = RESTORE_METADATA_SCHEMA;
    const newer = {
      ...rest,
      fields: [...fields, { name: 'extraMetadata', type: ['null', { type: 'map', values: 'string' }], default: null }],
    };
    const { records } = readAvroContainer(serializeRestoreMetadata(SAMPLE));
    const record: Record<string, unknown> = { ...(records[0] as Record<string, unknown>), extraMetadata: { k: 'v' } };
    (record.hoodieRestoreMetadata as Record<string, unknown[]>)['20240418173553000']?.unshift(null);
    const bytes = writeAvroContainer(JSON.stringify(newer), [record]);
    expect(parseRestoreMetadata(bytes, 'newer')).toEqual(SAMPLE);
  });

  it('damaged files → CORRUPT_FILE naming the path', () => {
    const bytes = serializeRestoreMetadata(SAMPLE);
    expect(codeOf(() => parseRestoreMetadata(bytes.subarray(0, bytes.length - 40), 'cut'))).toBe('CORRUPT_FILE');
    const noTime = writeAvroContainer(JSON.stringify({ type: 'record', name: 'X', fields: [{ name: 'startRestoreTime', type: 'string' }] }), [{ startRestoreTime: '1' }]);
    expect(codeOf(() => parseRestoreMetadata(noTime, 'no-time'))).toBe('CORRUPT_FILE');
    const badNested = writeAvroContainer(JSON.stringify({
      type: 'record', name: 'X', fields: [
        { name: 'startRestoreTime', type: 'string' }, { name: 'timeTakenInMillis', type: 'long' },
        { name: 'hoodieRestoreMetadata', type: { type: 'map', values: { type: 'array', items: { type: 'record', name: 'R', fields: [{ name: 'startRollbackTime', type: 'int' }] } } } },
      ],
    }), [{ startRestoreTime: '1', timeTakenInMillis: 1n, hoodieRestoreMetadata: { a: [{ startRollbackTime: 5 }] } }]);
    try {
      parseRestoreMetadata(badNested, 'nested.restore');
      expect.unreachable();
    } catch (err) {
      expect((err as LakeletError).code).toBe('CORRUPT_FILE');
      expect((err as LakeletError).context.path).toBe('nested.restore');
    }
  });
});
