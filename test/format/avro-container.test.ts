// Avro Object Container Files: the v8 deltacommit fixture (structure and byte-exact rewrite), deflate and
// multi-block round trips, and corrupt containers failing with CORRUPT_FILE (path + offset), never a TypeError.
import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { isLakeletError } from '../../src/errors.js';
import { readAvroContainer, writeAvroContainer } from '../../src/format/avro/container.js';

const fixture = (): Uint8Array =>
  new Uint8Array(readFileSync(`${inject('FIXTURES_DIR')}/core-test-data/commit_metadata/v8_deltacommit.avro`));

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('readAvroContainer on v8_deltacommit.avro', () => {
  it('decodes HoodieCommitMetadata with partitionToWriteStats', () => {
    const { schema, metadata, records } = readAvroContainer(fixture(), 'v8_deltacommit.avro');
    expect(schema.type === 'record' && schema.fullName).toBe('org.apache.hudi.avro.model.HoodieCommitMetadata');
    expect(metadata['avro.codec']).toBeUndefined();
    expect(records).toHaveLength(1);
    const meta = records[0] as Record<string, unknown>;
    expect(meta.operationType).toBe('UPSERT');
    expect(meta.compacted).toBe(false);
    expect(meta.version).toBeNull();
    const stats = meta.partitionToWriteStats as Record<string, Record<string, unknown>[]>;
    expect(Object.keys(stats)).toEqual(['city=san_francisco', 'city=sao_paulo', 'city=chennai']);
    const sf = stats['city=san_francisco'];
    expect(sf).toHaveLength(1);
    expect(sf?.[0]).toMatchObject({
      fileId: '87a4c895-1f59-4518-972f-27f49a92c7b4-0',
      path: 'city=san_francisco/87a4c895-1f59-4518-972f-27f49a92c7b4-0_0-252-389_20250713011913147.parquet',
      prevCommit: 'null',
      partitionPath: 'city=san_francisco',
    });
    expect(typeof sf?.[0]?.numWrites).toBe('bigint');
    expect(typeof sf?.[0]?.totalWriteBytes).toBe('bigint');
    const extra = meta.extraMetadata as Record<string, string>;
    expect(JSON.parse(extra.schema ?? '')).toMatchObject({ name: 'v8_trips_8i1u_record', namespace: 'hoodie.v8_trips_8i1u' });
  });

  it('rewrites the fixture byte for byte given the same schema text and sync marker', () => {
    const bytes = fixture();
    const { metadata, records } = readAvroContainer(bytes);
    const sync = bytes.subarray(bytes.length - 16);
    const again = writeAvroContainer(metadata['avro.schema'] ?? '', records, { syncMarker: sync });
    expect(again).toEqual(bytes);
  });
});

describe('writeAvroContainer', () => {
  const schema = '{"type":"record","name":"R","namespace":"x","fields":[{"name":"id","type":"long"},{"name":"s","type":["null","string"]}]}';
  const records = Array.from({ length: 2500 }, (_, i) => ({ id: BigInt(i), s: i % 3 === 0 ? null : `row-${i}` }));

  it('round-trips records across several deflate blocks', () => {
    const bytes = writeAvroContainer(schema, records, { codec: 'deflate', blockSize: 1000, metadata: { 'x.note': 'hi' } });
    const back = readAvroContainer(bytes);
    expect(back.metadata['avro.codec']).toBe('deflate');
    expect(back.metadata['x.note']).toBe('hi');
    expect(back.metadata['avro.schema']).toBe(schema);
    expect(back.records).toEqual(records);
  });

  it('writes a header-only file for no records', () => {
    expect(readAvroContainer(writeAvroContainer(schema, [])).records).toEqual([]);
  });

  it('uses a random sync marker by default', () => {
    const a = writeAvroContainer(schema, records.slice(0, 1));
    const b = writeAvroContainer(schema, records.slice(0, 1));
    expect(a.subarray(a.length - 16)).not.toEqual(b.subarray(b.length - 16));
  });
});

describe('corrupt containers', () => {
  it('rejects bad magic, bad sync and unknown codecs', () => {
    const bytes = fixture().slice();
    const magic = bytes.slice();
    magic[0] = 0x4e;
    const e1 = errorOf(() => readAvroContainer(magic, 'm.avro'));
    expect(isLakeletError(e1, 'CORRUPT_FILE') && e1.context).toMatchObject({ path: 'm.avro', offset: 0 });
    const sync = bytes.slice();
    sync[sync.length - 1] = (sync[sync.length - 1] ?? 0) ^ 0xff;
    const e2 = errorOf(() => readAvroContainer(sync, 's.avro'));
    expect(isLakeletError(e2, 'CORRUPT_FILE') && e2.context.offset).toBe(bytes.length - 16);
    const snappy = writeAvroContainer('"int"', [1]);
    const text = new TextDecoder('latin1').decode(snappy);
    expect(text.includes('avro.codec')).toBe(false);
    const withCodec = writeAvroContainer('"int"', [1], { codec: 'deflate' });
    const i = new TextDecoder('latin1').decode(withCodec).indexOf('deflate');
    const patched = withCodec.slice();
    patched.set(new TextEncoder().encode('snappyX'), i);
    expect(isLakeletError(errorOf(() => readAvroContainer(patched)), 'UNSUPPORTED')).toBe(true);
  });

  it('never throws anything but CORRUPT_FILE on truncation or flipped bytes', () => {
    const bytes = fixture();
    const codes = new Set<string>();
    for (let cut = 0; cut < bytes.length; cut += 7) {
      const err = errorOf(() => readAvroContainer(bytes.subarray(0, cut), 'cut.avro'));
      codes.add(isLakeletError(err) ? err.code : `other: ${String(err)}`);
    }
    expect([...codes]).toEqual(['CORRUPT_FILE']);
    const seen = new Set<string>();
    for (let at = 0; at < bytes.length; at += 3) {
      const flipped = bytes.slice();
      flipped[at] = (flipped[at] ?? 0) ^ 0xa5;
      const err = errorOf(() => readAvroContainer(flipped, 'flip.avro'));
      seen.add(err === undefined ? 'ok' : isLakeletError(err) ? err.code : `other: ${String(err)}`);
    }
    expect([...seen].filter((c) => c !== 'ok' && c !== 'CORRUPT_FILE')).toEqual([]);
    expect(seen.has('CORRUPT_FILE')).toBe(true);
  });
});
