// HoodieSavepointMetadata (`<t>.savepoint`): round trip, the embedded writer schema, files of the older
// schema without `version`, protected paths, and damaged files → CORRUPT_FILE.
import { describe, expect, it } from 'vitest';
import { LakeletError } from '../../src/errors.js';
import { readAvroContainer, writeAvroContainer } from '../../src/format/avro/container.js';
import {
  parseSavepointMetadata,
  SAVEPOINT_METADATA_SCHEMA,
  savepointedFilePaths,
  serializeSavepointMetadata,
  type SavepointMetadata,
} from '../../src/timeline/savepoint-metadata.js';

const SYNC = new Uint8Array(16).fill(7);

const SAMPLE: SavepointMetadata = {
  savepointedBy: 'ann',
  savepointedAt: 1_713_479_751_906,
  comments: 'before the migration',
  partitionMetadata: {
    'city=sf': { partitionPath: 'city=sf', savepointDataFile: ['a-0_0-1-2_20240418173551906.parquet', '.a-0_20240418173551906.log.1_0-1-3'] },
    'city=nyc': { partitionPath: 'city=nyc', savepointDataFile: ['b-0_0-1-2_20240418173550988.parquet'] },
  },
  version: 1,
};

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (err) {
    return err instanceof LakeletError ? err.code : 'not a LakeletError';
  }
  return undefined;
}

describe('HoodieSavepointMetadata', () => {
  it('round-trips every field', () => {
    const bytes = serializeSavepointMetadata(SAMPLE);
    expect(parseSavepointMetadata(bytes, 'x.savepoint')).toEqual(SAMPLE);
  });

  it('writes Hudi’s schema (namespace, Java string props, version union) and a long savepointedAt', () => {
    const bytes = serializeSavepointMetadata(SAMPLE);
    const { metadata, records } = readAvroContainer(bytes);
    expect(metadata['avro.schema']).toBe(JSON.stringify(SAVEPOINT_METADATA_SCHEMA));
    expect(metadata['avro.codec']).toBeUndefined();
    const schema = JSON.parse(metadata['avro.schema'] ?? '{}') as { name: string; namespace: string; fields: { name: string }[] };
    expect(schema.name).toBe('HoodieSavepointMetadata');
    expect(schema.namespace).toBe('org.apache.hudi.avro.model');
    expect(schema.fields.map((f) => f.name)).toEqual(['savepointedBy', 'savepointedAt', 'comments', 'partitionMetadata', 'version']);
    expect(metadata['avro.schema']).toContain('"name":"HoodieSavepointPartitionMetadata"');
    expect((records[0] as { savepointedAt: unknown }).savepointedAt).toBe(1_713_479_751_906n);
  });

  it('is deterministic with a fixed sync marker; version defaults to 1', () => {
    const { version: _v, ...noVersion } = SAMPLE;
    const a = serializeSavepointMetadata(noVersion, { syncMarker: SYNC });
    expect(a).toEqual(serializeSavepointMetadata(SAMPLE, { syncMarker: SYNC }));
    expect(a.subarray(a.length - 16)).toEqual(SYNC);
    expect(parseSavepointMetadata(a, 'x').version).toBe(1);
    expect(parseSavepointMetadata(serializeSavepointMetadata({ ...SAMPLE, version: 2 }), 'x').version).toBe(2);
  });

  it('reads files of the older schema that has no version field', () => {
    const { fields, ...rest } = SAVEPOINT_METADATA_SCHEMA;
    const old = { ...rest, fields: fields.filter((f) => f.name !== 'version') };
    const { version: _v, ...record } = SAMPLE;
    const bytes = writeAvroContainer(JSON.stringify(old), [record]);
    expect(parseSavepointMetadata(bytes, 'old.savepoint')).toEqual(SAMPLE);
  });

  it('handles an empty table (no partitions) and the root partition', () => {
    const empty = { ...SAMPLE, partitionMetadata: {} };
    expect(parseSavepointMetadata(serializeSavepointMetadata(empty), 'x')).toEqual(empty);
    const root = { ...SAMPLE, partitionMetadata: { '': { partitionPath: '', savepointDataFile: ['f-0_0-0-0_1.parquet'] } } };
    expect(savepointedFilePaths(parseSavepointMetadata(serializeSavepointMetadata(root), 'x'))).toEqual(['f-0_0-0-0_1.parquet']);
  });

  it('savepointedFilePaths: partition/name for every protected file, sorted', () => {
    expect(savepointedFilePaths(SAMPLE)).toEqual([
      'city=nyc/b-0_0-1-2_20240418173550988.parquet',
      'city=sf/.a-0_20240418173551906.log.1_0-1-3',
      'city=sf/a-0_0-1-2_20240418173551906.parquet',
    ]);
  });

  it('damaged or foreign files → CORRUPT_FILE naming the path', () => {
    const bytes = serializeSavepointMetadata(SAMPLE);
    expect(codeOf(() => parseSavepointMetadata(bytes.subarray(0, bytes.length - 30), 'cut.savepoint'))).toBe('CORRUPT_FILE');
    expect(codeOf(() => parseSavepointMetadata(new TextEncoder().encode('{"savepointedBy":"x"}'), 'json.savepoint'))).toBe('CORRUPT_FILE');
    try {
      parseSavepointMetadata(new Uint8Array([1, 2, 3]), 'tiny.savepoint');
      expect.unreachable();
    } catch (err) {
      expect((err as LakeletError).context.path).toBe('tiny.savepoint');
    }
    // Two records, and a record of another shape.
    expect(codeOf(() => parseSavepointMetadata(writeAvroContainer(JSON.stringify(SAVEPOINT_METADATA_SCHEMA), [SAMPLE, SAMPLE]), 'two'))).toBe('CORRUPT_FILE');
    const other = writeAvroContainer(JSON.stringify({ type: 'record', name: 'X', fields: [{ name: 'savepointedAt', type: 'string' }] }), [{ savepointedAt: 'now' }]);
    expect(codeOf(() => parseSavepointMetadata(other, 'other'))).toBe('CORRUPT_FILE');
    const badFiles = writeAvroContainer(JSON.stringify({
      type: 'record', name: 'X', fields: [{ name: 'savepointedAt', type: 'long' }, { name: 'partitionMetadata', type: { type: 'map', values: { type: 'record', name: 'P', fields: [{ name: 'savepointDataFile', type: 'string' }] } } }],
    }), [{ savepointedAt: 1n, partitionMetadata: { p: { savepointDataFile: 'not a list' } } }]);
    expect(codeOf(() => parseSavepointMetadata(badFiles, 'bad'))).toBe('CORRUPT_FILE');
  });
});
