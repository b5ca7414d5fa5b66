// merge/cow-merge.ts: the pure copy-on-write merge of one file group — updates win or lose by event-time
// ordering (ties to the incoming record), deletes with and without ordering values, commit-time ordering,
// inserts, untouched rows keeping their commit time and seqno, already-merged rows (compaction) written as
// they are — and the worker's mergeFileGroup giving the same bytes as the inline call.
import { describe, expect, it } from 'vitest';
import { bufferFromBytes, readParquetFooter, readParquetRows } from '../../src/format/parquet/read.js';
import { writeBaseFile } from '../../src/format/parquet/write.js';
import { mergeFileGroupRows, type MergeFileGroupSpec } from '../../src/merge/cow-merge.js';
import type { HoodieRecord } from '../../src/merge/hoodie-record.js';
import { parseRecordSchema, withMetaFields } from '../../src/schema/table-schema.js';
import { createWorkerApi } from '../../src/worker/worker-impl.js';
import { mergeSpecToWire } from '../../src/worker/record-wire.js';

const schema = withMetaFields(parseRecordSchema({ type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'string' }] }, 'test'));
const OLD = '20240101000000000';
const NEW = '20240202000000000';
const baseRow = (id: string, ts: bigint, v: string, seq: number) => ({
  _hoodie_commit_time: OLD, _hoodie_commit_seqno: `${OLD}_0_${seq}`, _hoodie_record_key: id, _hoodie_partition_path: 'p', _hoodie_file_name: 'old.parquet', id, ts, v,
});
const base = writeBaseFile([baseRow('a', 5n, 'a0', 0), baseRow('b', 5n, 'b0', 1), baseRow('c', 5n, 'c0', 2), baseRow('d', 5n, 'd0', 3), baseRow('e', 5n, 'e0', 4)], { schema, rowGroupRows: 2 });
const upd = (id: string, ts: bigint | undefined, v: string, isDelete = false): HoodieRecord =>
  ({ recordKey: id, partitionPath: 'p', data: isDelete ? {} : { id, ts, v }, ordering: ts === undefined ? [] : [ts], isDelete, index: 0 });

function spec(over: Partial<MergeFileGroupSpec> = {}): MergeFileGroupSpec {
  return {
    instantTime: NEW, taskId: 3, partitionPath: 'p', fileName: 'new.parquet', basePath: 'p/old.parquet',
    updates: new Map([
      ['a', upd('a', 6n, 'a1')], // greater: wins
      ['b', upd('b', 4n, 'b1')], // smaller: loses
      ['c', upd('c', 5n, 'c1')], // tie: the incoming record wins
      ['d', upd('d', undefined, '', true)], // delete without ordering: applies
      ['e', upd('e', 4n, '', true)], // delete with a smaller ordering value: loses
    ]),
    inserts: [upd('z', 1n, 'z0')],
    schema, mergeMode: 'EVENT_TIME_ORDERING', orderingFields: ['ts'], orderingKinds: [{ kind: 'bigint', scale: 0 }],
    writer: { rowGroupRows: 2 }, collectKeys: true,
    ...over,
  };
}

async function rowsOf(bytes: Uint8Array): Promise<string[]> {
  const file = bufferFromBytes(bytes);
  const rows = await readParquetRows(file, await readParquetFooter(file, 'x'), 'x');
  return rows.map((r) => `${String(r.id)}=${String(r.v)}@${String(r._hoodie_commit_seqno)}/${String(r._hoodie_file_name)}`);
}

describe('mergeFileGroupRows', () => {
  it('merges updates by event-time ordering, applies deletes, appends inserts; untouched rows keep their seqno', async () => {
    const m = await mergeFileGroupRows(spec(), bufferFromBytes(base));
    expect(await rowsOf(m.bytes)).toEqual([
      `a=a1@${NEW}_3_0/new.parquet`,
      `b=b0@${OLD}_0_1/new.parquet`,
      `c=c1@${NEW}_3_1/new.parquet`,
      `e=e0@${OLD}_0_4/new.parquet`,
      `z=z0@${NEW}_3_2/new.parquet`,
    ]);
    expect({ rowCount: m.rowCount, inserted: m.inserted, updated: m.updated, deleted: m.deleted, keys: m.keys }).toEqual({ rowCount: 5, inserted: 1, updated: 2, deleted: 1, keys: ['a', 'b', 'c', 'e', 'z'] });
  });

  it('under commit-time ordering every incoming record wins', async () => {
    const m = await mergeFileGroupRows(spec({ mergeMode: 'COMMIT_TIME_ORDERING', collectKeys: false }), bufferFromBytes(base));
    expect((await rowsOf(m.bytes)).map((r) => r.split('@')[0])).toEqual(['a=a1', 'b=b1', 'c=c1', 'z=z0']);
    expect([m.updated, m.deleted, m.keys]).toEqual([3, 2, []]);
  });

  it('a new file group holds the inserts; merged rows (a compacted slice) keep their meta fields', async () => {
    const merged = [baseRow('m', 1n, 'm0', 7)];
    const m = await mergeFileGroupRows(spec({ basePath: undefined, updates: new Map(), mergedRows: merged }), undefined);
    expect(await rowsOf(m.bytes)).toEqual([`m=m0@${OLD}_0_7/new.parquet`, `z=z0@${NEW}_3_0/new.parquet`]);
    expect([m.rowCount, m.inserted, m.updated]).toEqual([2, 1, 0]);
  });

  it('the worker implementation returns the same bytes as the inline call', async () => {
    const inline = await mergeFileGroupRows(spec(), bufferFromBytes(base));
    const fromWorker = await createWorkerApi({ kernels: 'js' }).mergeFileGroup({ ...await mergeSpecToWire(spec()), base: base.slice().buffer });
    expect(new Uint8Array(fromWorker.bytes)).toEqual(inline.bytes);
    expect(fromWorker.keys).toEqual(inline.keys);
  });
});
