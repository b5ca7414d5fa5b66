// `#HUDI#` log files: every core-test-data log decoded (types, headers, contents checked against hand-read
// bytes of hudi-format.md §7), every fixture-zip log block re-encoded byte for byte, the 105-byte rollback log.
import { readdirSync, readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { describe, expect, inject, it } from 'vitest';
import { encodeLogBlock, type LogBlock, scanLogBlocks } from '../../../src/format/log/block.js';
import { decodeLogBlockContent } from '../../../src/format/log/block-content.js';
import { decodeAvroDataBlock, decodeCommandBlock, encodeAvroDataBlockContent, parquetDataBlockBytes } from '../../../src/format/log/content.js';
import { decodeDeleteBlock, encodeDeleteBlockContent } from '../../../src/format/log/delete-block.js';

const logDir = (): string => `${inject('FIXTURES_DIR')}/core-test-data/log_files`;
function logFile(kind: string): { name: string; bytes: Uint8Array } {
  const dir = `${logDir()}/${kind}`;
  const name = readdirSync(dir).find((n) => n.includes('.log.'));
  if (name === undefined) throw new Error(`no log file in ${dir}`);
  return { name, bytes: new Uint8Array(readFileSync(`${dir}/${name}`)) };
}
function onlyBlock(bytes: Uint8Array, name: string): LogBlock {
  const scan = scanLogBlocks(bytes, name);
  expect(scan.corrupt).toEqual([]);
  expect(scan.blocks).toHaveLength(1);
  const [block] = scan.blocks;
  if (block === undefined) throw new Error('no block');
  return block;
}

describe('core-test-data log files', () => {
  it('rollback: a COMMAND block, and encodeLogBlock reproduces the 105-byte file exactly', () => {
    const { name, bytes } = logFile('valid_log_rollback');
    expect(bytes.length).toBe(105);
    const block = onlyBlock(bytes, name);
    expect(block).toMatchObject({ type: 'COMMAND', offset: 0, length: 105, formatVersion: 1, footer: {} });
    expect(block.header).toEqual({ INSTANT_TIME: '20250126040936578', COMMAND_BLOCK_TYPE: '0', TARGET_INSTANT_TIME: '20250126040826878' });
    expect(Object.keys(block.header)).toEqual(['INSTANT_TIME', 'COMMAND_BLOCK_TYPE', 'TARGET_INSTANT_TIME']);
    expect(block.content.length).toBe(0);
    expect(decodeCommandBlock(block, name)).toEqual({ commandType: 'ROLLBACK', targetInstant: '20250126040826878' });
    const encoded = encodeLogBlock('COMMAND', { INSTANT_TIME: '20250126040936578', COMMAND_BLOCK_TYPE: '0', TARGET_INSTANT_TIME: '20250126040826878' });
    expect(encoded).toEqual(bytes);
    const view = new DataView(encoded.buffer);
    expect(view.getBigInt64(6)).toBe(91n);
    expect(view.getBigInt64(97)).toBe(97n);
  });

  it('avro data: one record with the values of the §7.2 example layout', () => {
    const { name, bytes } = logFile('valid_log_avro_data');
    const block = onlyBlock(bytes, name);
    expect(block.type).toBe('AVRO_DATA');
    expect(block.length).toBe(1172);
    expect(block.header.INSTANT_TIME).toBe('20250316025828811');
    expect(block.header.SCHEMA?.length).toBe(853);
    expect(block.content.length).toBe(240);
    const { schema, records } = decodeAvroDataBlock(block, name);
    expect(schema.type === 'record' && schema.fullName).toBe('hoodie.trips_quickstart_mor_avro.trips_quickstart_mor_avro_record');
    expect(records).toEqual([{
      _hoodie_commit_time: '20250316025828811',
      _hoodie_commit_seqno: '20250316025828811_0_2',
      _hoodie_record_key: '334e26e9-8355-45cc-97c6-c31daf0df330',
      _hoodie_partition_path: 'city=san_francisco',
      _hoodie_file_name: 'ff32ab89-5ad0-4968-83b4-89a34c95d32f-0',
      ts: 1695159649088n,
      uuid: '334e26e9-8355-45cc-97c6-c31daf0df330',
      rider: 'rider-A',
      driver: 'driver-K',
      fare: 29.1,
      city: 'san_francisco',
    }]);
    // Re-encoding content and block reproduces the file.
    const content = encodeAvroDataBlockContent(schema, records);
    expect(content).toEqual(block.content);
    expect(encodeLogBlock('AVRO_DATA', block.header, content)).toEqual(bytes);
  });

  it('delete: three keys, orderingVal int 0 in union branch 2 (IntWrapper)', () => {
    const { name, bytes } = logFile('valid_log_delete');
    const block = onlyBlock(bytes, name);
    expect(block.type).toBe('DELETE');
    expect(block.header.INSTANT_TIME).toBe('20250618054714114');
    expect(block.header.SCHEMA).toContain('"name":"v6_trips_8i3d_record"');
    const records = decodeDeleteBlock(block, name);
    expect(records.map((r) => r.recordKey)).toEqual([
      'e96c4396-3fad-413a-a942-4cb36106d721', '9909a8b1-2d15-4d3d-8ec9-efc48c536a00', '334e26e9-8355-45cc-97c6-c31daf0df330',
    ]);
    for (const r of records) {
      expect(r).toMatchObject({ partitionPath: 'city=san_francisco', orderingVal: 0, orderingValBranch: 2, orderingValType: 'int' });
    }
    expect(encodeDeleteBlockContent(records)).toEqual(block.content);
    expect(encodeLogBlock('DELETE', block.header, block.content)).toEqual(bytes);
  });

  it('parquet data: the embedded file parses with hyparquet', async () => {
    const { name, bytes } = logFile('valid_log_parquet_data');
    const block = onlyBlock(bytes, name);
    expect(block.type).toBe('PARQUET_DATA');
    expect(block.header.INSTANT_TIME).toBe('20250113230424191');
    const parquet = parquetDataBlockBytes(block, name);
    expect(parquet.length).toBe(4373);
    const file = parquet.slice().buffer;
    const meta = parquetMetadata(file);
    const rows = await parquetReadObjects({ file, compressors });
    expect(rows.length).toBe(Number(meta.num_rows));
    expect(rows.length).toBeGreaterThan(0);
    expect(Object.keys(rows[0] ?? {})).toEqual([
      '_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name',
      'ts', 'uuid', 'rider', 'driver', 'fare', 'city',
    ]);
    expect(rows.every((r) => r._hoodie_commit_time === '20250113230424191')).toBe(true);
  });
});

describe('fixture table logs', () => {
  it('scan without corruption and re-encode byte for byte; non-HFile contents decode', () => {
    const root = inject('FIXTURES_DIR');
    const zips = ['quickstart_trips_table/mor/avro/v6_trips_8i1u.zip', 'quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip',
      'sample_table/mor/parquet/v6_nonpartitioned.zip', 'sample_table/mor/parquet/v6_nonpartitioned_rollback.zip',
      'sample_table/mor/avro/v9_nonpartitioned_rollback.zip', 'sample_table/mor/avro/v9_txns_simple_nometa.zip'];
    const types = new Map<string, number>();
    let files = 0;
    for (const zip of zips) {
      for (const [name, bytes] of Object.entries(unzipSync(readFileSync(`${root}/${zip}`)))) {
        if (name.includes('__MACOSX') || !/\/\.[^/]+\.log\.\d+/.test(name)) continue;
        files++;
        const scan = scanLogBlocks(bytes, name);
        expect(scan.corrupt, name).toEqual([]);
        const rebuilt = scan.blocks.map((b) => encodeLogBlock(b.type, b.header, b.content, b.footer));
        expect(concat(rebuilt), name).toEqual(bytes);
        for (const b of scan.blocks) {
          types.set(b.type, (types.get(b.type) ?? 0) + 1);
          if (b.type === 'HFILE_DATA') continue;
          const c = decodeLogBlockContent(b, name);
          expect(c.type).toBe(b.type);
        }
      }
    }
    expect(files).toBeGreaterThan(40);
    expect(types.get('AVRO_DATA')).toBeGreaterThan(0);
    expect(types.get('DELETE')).toBeGreaterThan(0);
    expect(types.get('PARQUET_DATA')).toBeGreaterThan(0);
    expect(types.get('COMMAND')).toBe(1);
  });
});

/** Concatenate byte arrays. */
function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
