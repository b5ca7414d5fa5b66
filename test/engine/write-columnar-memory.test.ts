// The copy-on-write merge's memory bound, shown structurally (issue 13): the old base file is read one row group
// at a time, and each row group's output batch is handed to the writer (which copies it into its own column
// buffers) before the next row group's bytes are read — so at most one old row group is decoded at once, beside
// the updates. Checked on the order of byte-range reads (mapped to row groups by the footer) and writer calls.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import { bufferFromBytes, readParquetFooter, type AsyncBuffer } from '../../src/format/parquet/read.js';
import { BaseFileWriter } from '../../src/format/parquet/write.js';
import { mergeFileGroupRows, type MergeFileGroupSpec } from '../../src/merge/cow-merge.js';
import type { HoodieRecord } from '../../src/merge/hoodie-record.js';

const schema = parseAvroSchema({
  type: 'record', name: 't_record', namespace: 'hoodie.t', fields: [
    ...['_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name'].map((name) => ({ name, type: ['null', 'string'], default: null })),
    { name: 'id', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: ['null', 'string'], default: null },
  ],
}) as AvroRecordSchema;

const GROUPS = 5;
const GROUP_ROWS = 200;

function oldBaseFile(): Uint8Array {
  const writer = new BaseFileWriter({ schema, rowGroupRows: GROUP_ROWS, codec: 'SNAPPY', bloomFilter: { numEntries: 1000 } });
  writer.write(Array.from({ length: GROUPS * GROUP_ROWS }, (_, i) => ({
    _hoodie_commit_time: '20240101000000000', _hoodie_commit_seqno: `20240101000000000_0_${i}`, _hoodie_record_key: `k${String(i).padStart(5, '0')}`,
    _hoodie_partition_path: 'p', _hoodie_file_name: 'old.parquet', id: `k${String(i).padStart(5, '0')}`, ts: 1n, v: `old-${i}`,
  })));
  return writer.finish();
}

const record = (i: number, isDelete = false): HoodieRecord => {
  const id = `k${String(i).padStart(5, '0')}`;
  return { recordKey: id, partitionPath: 'p', data: isDelete ? {} : { id, ts: 2n, v: `new-${i}` }, ordering: isDelete ? [] : [2n], isDelete, index: i };
};

afterEach(() => vi.restoreAllMocks());

describe('copy-on-write merge memory', () => {
  it('reads the old file row group by row group, each handed to the writer before the next is read', async () => {
    const bytes = oldBaseFile();
    const plain = bufferFromBytes(bytes);
    const footer = await readParquetFooter(plain, 'old.parquet');
    expect(footer.rowGroupRows).toEqual(new Array(GROUPS).fill(GROUP_ROWS));
    // Each row group's byte span, from its column chunks.
    const spans = footer.metadata.row_groups.map((g) => {
      const starts = g.columns.map((c) => Number(c.meta_data?.dictionary_page_offset ?? c.meta_data?.data_page_offset ?? 0));
      const ends = g.columns.map((c, j) => (starts[j] as number) + Number(c.meta_data?.total_compressed_size ?? 0));
      return [Math.min(...starts), Math.max(...ends)] as const;
    });
    const events: string[] = [];
    const file: AsyncBuffer = {
      byteLength: plain.byteLength,
      slice(start, end = plain.byteLength) {
        // The footer read (the file's tail, here the whole small file) is not a row group read.
        if (end < plain.byteLength) spans.forEach(([s, e], g) => { if (start < e && end > s) events.push(`read ${g}`); });
        else events.push('footer');
        return plain.slice(start, end);
      },
    };
    const writeColumns = BaseFileWriter.prototype.writeColumns;
    vi.spyOn(BaseFileWriter.prototype, 'writeColumns').mockImplementation(function (this: BaseFileWriter, batch) {
      events.push(`write ${batch.length}`);
      writeColumns.call(this, batch);
    });
    // An update and a delete in every row group, plus inserts.
    const updates = new Map<string, HoodieRecord>();
    for (let g = 0; g < GROUPS; g++) {
      updates.set(record(g * GROUP_ROWS + 3).recordKey, record(g * GROUP_ROWS + 3));
      updates.set(record(g * GROUP_ROWS + 7).recordKey, record(g * GROUP_ROWS + 7, true));
    }
    const spec: MergeFileGroupSpec = {
      instantTime: '20240102000000000', taskId: 0, partitionPath: 'p', fileName: 'new.parquet', basePath: 'old.parquet',
      updates, inserts: [record(GROUPS * GROUP_ROWS), record(GROUPS * GROUP_ROWS + 1)], schema,
      mergeMode: 'EVENT_TIME_ORDERING', orderingFields: ['ts'], orderingKinds: [{ kind: 'bigint', scale: 0 }],
      writer: { codec: 'SNAPPY', rowGroupRows: GROUP_ROWS, bloomFilter: { numEntries: 1000 } }, collectKeys: false,
    };
    const merged = await mergeFileGroupRows(spec, file);
    expect([merged.updated, merged.deleted, merged.inserted]).toEqual([GROUPS, GROUPS, 2]);
    const collapsed = events.filter((e, i) => e !== events[i - 1]);
    const expected = Array.from({ length: GROUPS }, (_, g) => [`read ${g}`, `write ${GROUP_ROWS - 1}`]).flat();
    expect(collapsed).toEqual(['footer', ...expected, 'write 2']);
  });
});
