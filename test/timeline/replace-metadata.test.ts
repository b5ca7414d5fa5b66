// Requested replace metadata: the v6 insert_overwrite_table `.replacecommit.requested` (all fields null)
// reproduced byte for byte, and non-null values round-tripping.
import { describe, expect, it } from 'vitest';
import { LakeletError } from '../../src/errors.js';
import { readAvroContainer } from '../../src/format/avro/container.js';
import { parseRequestedReplaceMetadata, serializeRequestedReplaceMetadata } from '../../src/timeline/replace-metadata.js';
import { zipEntry } from '../helpers/zip-entry.js';

const fixture = zipEntry('sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip', '.hoodie/20240707001303088.replacecommit.requested');
const sync = fixture.subarray(fixture.length - 16);

describe('HoodieRequestedReplaceMetadata (.replacecommit.requested)', () => {
  it('parses the insert_overwrite_table fixture as all null', () => {
    expect(parseRequestedReplaceMetadata(fixture, 'r')).toEqual({ operationType: null, clusteringPlan: null, extraMetadata: null, version: null });
  });

  it('writes the fixture bytes for an insert_overwrite with its sync marker', () => {
    expect(serializeRequestedReplaceMetadata({}, { syncMarker: sync })).toEqual(fixture);
    expect(serializeRequestedReplaceMetadata({ operationType: null, version: null }, { syncMarker: sync })).toEqual(fixture);
  });

  it('keeps the schema text of the fixture header', () => {
    expect(readAvroContainer(serializeRequestedReplaceMetadata()).metadata['avro.schema']).toBe(readAvroContainer(fixture).metadata['avro.schema']);
  });

  it('round-trips operation type, extra metadata and version', () => {
    const md = { operationType: 'INSERT_OVERWRITE', extraMetadata: { a: 'b' }, version: 1 };
    const bytes = serializeRequestedReplaceMetadata(md);
    expect(bytes).not.toEqual(serializeRequestedReplaceMetadata({}, { syncMarker: bytes.subarray(bytes.length - 16) }));
    expect(parseRequestedReplaceMetadata(bytes, 'r')).toEqual({ ...md, clusteringPlan: null });
  });

  it('reads an empty file as all null and rejects garbage with CORRUPT_FILE', () => {
    expect(parseRequestedReplaceMetadata(new Uint8Array(0), 'r').operationType).toBeNull();
    let code: string | undefined;
    try {
      parseRequestedReplaceMetadata(new TextEncoder().encode('{"operationType":1}'), 'bad.replacecommit.requested');
    } catch (err) {
      code = (err as LakeletError).code;
    }
    expect(code).toBe('CORRUPT_FILE');
  });
});
