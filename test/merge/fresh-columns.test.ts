// freshBatch (one pass over the records) against freshField read row by row: the same vectors, with meta fields
// generated, overridden by some records' data, and data fields named like Object.prototype's members.
import { describe, expect, test } from 'vitest';
import { freshBatch, freshField, type FreshMeta } from '../../src/merge/fresh-columns.js';
import type { HoodieRecord } from '../../src/merge/hoodie-record.js';
import { META_FIELDS } from '../../src/schema/table-schema.js';

const meta: FreshMeta = { instantTime: '20261204120000000', taskId: 3, partitionPath: 'city=sf', fileName: 'f1-0_3-0-0_20261204120000000.parquet' };

const record = (i: number, data: Record<string, unknown>): HoodieRecord => ({ recordKey: `k${i}`, partitionPath: 'city=sf', data, ordering: [], isDelete: false, index: i });

/** The reference: every field of every row through freshField. */
function byRows(records: HoodieRecord[], start: number, end: number, names: string[], firstSeq: number): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const name of names) {
    const get = freshField(name, meta, firstSeq);
    out[name] = records.slice(start, end).map((r, j) => get(r, j));
  }
  return out;
}

const names = [...META_FIELDS, 'id', 'fare', 'constructor', 'toString', 'city'];

describe('freshBatch', () => {
  test('plain records: meta fields generated, data fields read, columns in the order asked', () => {
    const records = Array.from({ length: 50 }, (_, i) => record(i, { id: i, fare: i * 1.5, city: i % 3 === 0 ? null : 'sf' }));
    const batch = freshBatch(records, 5, 45, names, meta, 100);
    expect(batch.length).toBe(40);
    expect(Object.keys(batch.columns)).toEqual(names);
    expect(Object.fromEntries(Object.entries(batch.columns).map(([k, v]) => [k, Array.from(v)]))).toEqual(byRows(records, 5, 45, names, 100));
    expect(batch.columns._hoodie_commit_seqno?.[0]).toBe(`${meta.instantTime}_3_100`);
    expect(batch.columns._hoodie_record_key?.[0]).toBe('k5');
    expect(batch.columns['constructor']?.[0]).toBeUndefined();
  });

  test('a meta field some record overrides, and own prototype-named fields, win as in freshField', () => {
    const records = Array.from({ length: 20 }, (_, i) => record(i, { id: i, fare: 1, city: 'sf' }));
    (records[7] as HoodieRecord).data._hoodie_commit_time = 'x';
    (records[9] as HoodieRecord).data._hoodie_record_key = 'own-key';
    (records[11] as HoodieRecord).data._hoodie_commit_seqno = 'own-seq';
    Object.defineProperty((records[12] as HoodieRecord).data, 'constructor', { value: 'c', enumerable: true });
    (records[13] as HoodieRecord).data['toString'] = 'ts';
    const batch = freshBatch(records, 0, 20, names, meta, 0);
    const expected = byRows(records, 0, 20, names, 0);
    expect(Object.fromEntries(Object.entries(batch.columns).map(([k, v]) => [k, Array.from(v)]))).toEqual(expected);
    expect(batch.columns._hoodie_commit_time?.[7]).toBe('x');
    expect(batch.columns._hoodie_commit_time?.[8]).toBe(meta.instantTime);
    expect(batch.columns._hoodie_record_key?.[9]).toBe('own-key');
    expect(batch.columns._hoodie_commit_seqno?.[11]).toBe('own-seq');
    expect(batch.columns._hoodie_commit_seqno?.[12]).toBe(`${meta.instantTime}_3_12`);
    expect(batch.columns['constructor']?.[12]).toBe('c');
    expect(batch.columns['constructor']?.[0]).toBeUndefined();
    expect(batch.columns['toString']?.[13]).toBe('ts');
  });
});
