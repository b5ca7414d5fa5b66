// Base file writer in headless Chromium: write a small Hudi base file (GZIP via fflate, nested columns, decimals,
// timestamps) and read it back with our parquet reader, proving the writer path has no Node-only dependency.
import { describe, expect, it } from 'vitest';
import { parseAvroSchema, type AvroRecordSchema } from '../../../src/format/avro/schema.js';
import { BaseFileWriter } from '../../../src/format/parquet/write.js';
import { parseBloomFilter } from '../../../src/format/bloom-filter-parse.js';
import { bufferFromBytes, readParquetFooter, readParquetRows } from '../../../src/format/parquet/read.js';
import { withMetaFields } from '../../../src/schema/table-schema.js';

const schema = withMetaFields(parseAvroSchema({
  type: 'record', name: 'trip', namespace: 'browser',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'fare', type: ['null', { type: 'fixed', name: 'fare', size: 8, logicalType: 'decimal', precision: 18, scale: 2 }] },
    { name: 'at', type: ['null', { type: 'long', logicalType: 'timestamp-micros' }] },
    { name: 'day', type: ['null', { type: 'int', logicalType: 'date' }] },
    { name: 'stops', type: ['null', { type: 'array', items: { type: 'record', name: 'stop', fields: [{ name: 'name', type: 'string' }, { name: 'km', type: 'double' }] } }] },
    { name: 'extra', type: ['null', { type: 'map', values: 'string' }] },
    { name: 'driver', type: ['null', { type: 'record', name: 'driver', fields: [{ name: 'name', type: ['null', 'string'] }] }] },
  ],
}) as AvroRecordSchema);

describe('BaseFileWriter (browser)', () => {
  it('writes a GZIP base file that our reader reads back', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({
      _hoodie_commit_time: '20240101000000000',
      _hoodie_commit_seqno: `20240101000000000_0_${i}`,
      _hoodie_record_key: `key-${i}`,
      _hoodie_partition_path: '',
      _hoodie_file_name: 'f.parquet',
      id: 2n ** 60n + BigInt(i),
      fare: i === 2 ? null : `${i - 2}.5${i}`,
      at: new Date(Date.UTC(2024, 0, 1, 0, 0, i)),
      day: new Date(Date.UTC(2024, 0, 1 + i)),
      stops: [{ name: `s${i}`, km: i / 2 }, { name: 'ü', km: -1 }],
      extra: { k: `v${i}` },
      driver: { name: i % 2 ? null : `d${i}` },
    }));
    const writer = new BaseFileWriter({ schema, rowGroupRows: 2 });
    writer.write(rows);
    const bytes = writer.finish();
    const file = bufferFromBytes(bytes);
    const footer = await readParquetFooter(file, 'b.parquet');
    expect(footer.rowGroupRows).toEqual([2, 2, 1]);
    expect(footer.metadata.row_groups[0]?.columns[0]?.meta_data?.codec).toBe('GZIP');
    expect(footer.keyValues.hoodie_min_record_key).toBe('key-0');
    expect(footer.keyValues.hoodie_max_record_key).toBe('key-4');
    const bloom = parseBloomFilter(footer.keyValues['org.apache.hudi.bloomfilter'] as string, 'DYNAMIC_V0');
    for (const r of rows) expect(bloom.mightContain(r._hoodie_record_key)).toBe(true);
    const back = await readParquetRows(file, footer, 'b.parquet');
    expect(back).toEqual(rows);
  });
});
