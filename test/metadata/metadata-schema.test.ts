// HoodieMetadataRecord schemas (v8 = Hudi 1.0, v9 = Hudi 1.1) against the copies each MDT fixture embeds: the
// base HFiles' `schema` file info and the log blocks' SCHEMA header (with meta fields) and the MDT deltacommit's
// extraMetadata.schema (without), as exact strings, plus parsed-equal; v9's additions absent from v8; schema
// recognition by exact text or parsed equality.
import { describe, expect, it } from 'vitest';
import { scanLogBlocks } from '../../src/format/log/block.js';
import { parseAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import { parseCommitMetadata } from '../../src/timeline/commit-metadata.js';
import { metadataRecordSchema, metadataRecordSchemaText, metadataSchemaVersion, recogniseMetadataSchema } from '../../src/metadata/metadata-schema.js';
import { HFileReader } from '../../src/format/hfile/reader.js';
import { fixtureStorage } from '../helpers/fixtures.js';

const FIXTURES: [string, 8 | 9][] = [
  ['quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip', 8],
  ['sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip', 9],
  ['sample_table/mor/avro/v9_nonpartitioned_rollback.zip', 9],
];

/** Every SCHEMA header of the MDT's log blocks, and every extraMetadata.schema of its completed deltacommits. */
async function embeddedSchemas(zip: string): Promise<{ headers: string[]; extra: string[]; hfiles: string[] }> {
  const storage = await fixtureStorage(zip);
  const files = (await storage.list('.hoodie/metadata', { recursive: true })).map((f) => f.path);
  const headers: string[] = [];
  const hfiles: string[] = [];
  for (const p of files.filter((f) => /\/\.[^/]+\.log\.\d+_[\d-]+$/.test(f) && !f.includes('__MACOSX'))) {
    for (const b of scanLogBlocks(await storage.read(p), p).blocks) if (b.header.SCHEMA) headers.push(b.header.SCHEMA);
  }
  for (const p of files.filter((f) => f.endsWith('.hfile') && !f.includes('__MACOSX'))) {
    const schema = (await HFileReader.open(await storage.read(p), { path: p })).fileInfoText('schema');
    if (schema !== undefined) hfiles.push(schema);
  }
  const extra: string[] = [];
  for (const p of files.filter((f) => /\/timeline\/\d+_\d+\.deltacommit$/.test(f))) {
    const schema = parseCommitMetadata(await storage.read(p), p).extraMetadata.schema;
    if (schema) extra.push(schema);
  }
  return { headers, extra, hfiles };
}

describe('HoodieMetadataRecord schema', () => {
  for (const [zip, version] of FIXTURES) {
    it(`equals what Hudi embedded in ${zip} (v${version})`, async () => {
      const { headers, extra, hfiles } = await embeddedSchemas(zip);
      // Every base HFile's `schema` file-info entry (with meta fields) is the same exact text.
      expect(hfiles.length).toBeGreaterThan(0);
      for (const h of hfiles) expect(h).toBe(metadataRecordSchemaText(version));
      expect(headers.length).toBeGreaterThan(0);
      expect(extra.length).toBeGreaterThan(0);
      for (const h of headers) expect(h).toBe(metadataRecordSchemaText(version));
      for (const e of extra) expect(e).toBe(metadataRecordSchemaText(version, { metaFields: false }));
      expect(metadataRecordSchema(version)).toEqual(parseAvroSchema(headers[0] as string));
    });
  }

  it('differs between v8 and v9 exactly by valueType and the ArrayWrapper branch', () => {
    const columnStats = (v: 8 | 9) => {
      const f = metadataRecordSchema(v).fields.find((x) => x.name === 'ColumnStatsMetadata');
      const t = f?.type;
      return (t?.type === 'union' ? t.branches[1] : undefined) as AvroRecordSchema;
    };
    expect(columnStats(8).fields.map((f) => f.name)).not.toContain('valueType');
    expect(columnStats(9).fields.at(-1)?.name).toBe('valueType');
    const min = (v: 8 | 9) => columnStats(v).fields.find((f) => f.name === 'minValue')?.type;
    expect((min(8) as { branches: unknown[] }).branches.length).toBe(13); // null + 12 wrappers
    expect((min(9) as { branches: unknown[] }).branches.length).toBe(14); // + ArrayWrapper
    expect(metadataRecordSchema(9).fields.slice(0, 6).map((f) => f.name)).toEqual(['_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name', 'key']);
    expect(metadataRecordSchema(9, { metaFields: false }).fields[0]?.name).toBe('key');
  });

  it('recognises the four schemas by text or parsed equality, and refuses others', () => {
    expect(recogniseMetadataSchema(metadataRecordSchemaText(8))).toEqual({ version: 8, metaFields: true });
    expect(recogniseMetadataSchema(metadataRecordSchemaText(9, { metaFields: false }))).toEqual({ version: 9, metaFields: false });
    const reformatted = JSON.stringify(JSON.parse(metadataRecordSchemaText(9)), null, 2);
    expect(recogniseMetadataSchema(reformatted)).toEqual({ version: 9, metaFields: true });
    const other = JSON.parse(metadataRecordSchemaText(9)) as { fields: unknown[] };
    other.fields.push({ name: 'extra', type: 'int' });
    expect(() => recogniseMetadataSchema(JSON.stringify(other), 'x.log')).toThrow(expect.objectContaining({ code: 'UNSUPPORTED' }));
    expect(() => recogniseMetadataSchema('not json', 'x.log')).toThrow(expect.objectContaining({ code: 'UNSUPPORTED' }));
  });

  it('refuses table versions without a metadata record schema', () => {
    expect(() => metadataSchemaVersion(6)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED' }));
    expect(metadataSchemaVersion(9)).toBe(9);
  });
});
