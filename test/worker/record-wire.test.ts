// Records as columns across the worker boundary (worker/record-wire.ts): what arrives after a structured clone
// equals what was sent, for records of mixed shapes, field orders, value types, partitions, ordering lengths,
// deletes and maps by record key; a merge spec keeps its microsecond timestamps; the wire is columns, not one object per record,
// and vectors of strings, numbers and bigints cross packed into buffers that are transferred.
import { describe, expect, it } from 'vitest';
import type { HoodieRecord } from '../../src/merge/hoodie-record.js';
import type { MergeFileGroupSpec } from '../../src/merge/cow-merge.js';
import { MicrosDate } from '../../src/schema/timestamp-micros.js';
import { mergeSpecFromWire, mergeSpecToWire, recordMapFromWire, recordsFromWire, recordsToWire, wireBuffers } from '../../src/worker/record-wire.js';
import { columnBuffers, packColumn, unpackColumn, type PackedNumbers, type PackedStrings } from '../../src/worker/wire-columns.js';

const record = (i: number, data: Record<string, unknown>, extra: Partial<HoodieRecord> = {}): HoodieRecord =>
  ({ recordKey: `k${i}`, partitionPath: 'p=1', data, ordering: [BigInt(i)], isDelete: false, index: i, ...extra });

/** Records as they should arrive: fields holding undefined are absent. */
const defined = (r: HoodieRecord): HoodieRecord => ({ ...r, data: Object.fromEntries(Object.entries(r.data).filter(([, v]) => v !== undefined)) });

function mixed(): HoodieRecord[] {
  return [
    record(0, { a: 1, b: 'x', c: null }),
    record(1, { a: 2, b: 'y', c: 3n }),
    // another field order, a missing field and a field no other record has
    record(2, { b: 'z', a: 3, d: new Uint8Array([1, 2, 3]) }),
    record(3, { a: 4, b: undefined, c: { nested: [1, { deep: 'v' }] } }),
    // a data field of a meta name, a Date, an empty data object for a delete without ordering
    record(4, { a: 5, _hoodie_commit_time: 'mine', when: new Date(86_400_000) }, { partitionPath: 'p=2', ordering: [5n, 'tie'] }),
    record(5, {}, { isDelete: true, ordering: [], index: 99 }),
    record(6, { a: 7, b: 'w', c: null, tags: new Map([['k', 1]]) }),
  ];
}

describe('records as columns', () => {
  it('arrive equal to what was sent, after a structured clone', async () => {
    const records = mixed();
    const wire = structuredClone(await recordsToWire(records));
    expect(recordsFromWire(wire)).toEqual(records.map(defined));
    // absent, not undefined-valued: the rebuilt record has no key for a field it lacked
    expect(Object.keys((recordsFromWire(wire)[2] as HoodieRecord).data)).toEqual(['a', 'b', 'd']);
  });

  it('cross as one vector per field, one partition path when all share it', async () => {
    const same = mixed().map((r) => ({ ...r, partitionPath: 'p=1' }));
    const wire = await recordsToWire(same);
    expect(wire.count).toBe(7);
    expect(wire.partitionPaths).toBe('p=1');
    expect(wire.fields).toEqual(['a', 'b', 'c', 'd', '_hoodie_commit_time', 'when', 'tags']);
    expect(unpackColumn(wire.data[0] as never)).toEqual([1, 2, 3, 4, 5, undefined, 7]);
    expect(Array.from(wire.orderingCounts)).toEqual([1, 1, 1, 1, 2, 0, 1]);
    expect(Array.isArray((await recordsToWire(mixed())).partitionPaths)).toBe(true);
    expect(recordsFromWire(await recordsToWire([]))).toEqual([]);
  });

  it('awaits the pause between records (a page yields while a large batch becomes columns)', async () => {
    const records = Array.from({ length: 50 }, (_, i) => record(i, { a: i }));
    let calls = 0;
    let turns = 0;
    let units = 0;
    const wire = await recordsToWire(records, (n = 1) => {
      units += n;
      return ++calls % 10 === 0 ? Promise.resolve().then(() => { turns++; }) : undefined;
    });
    // once per record, then once per packed vector (keys, field a, ordering) with its length
    expect(calls).toBe(53);
    expect(units).toBe(200);
    expect(turns).toBe(5);
    expect(recordsFromWire(wire)).toEqual(records);
  });

  it('vectors of strings, numbers and bigints cross packed, exactly, their buffers transferred', async () => {
    const names = ['', 'ascii', null, 'é\u00e9', undefined, '\u{1F600}x', 'zh 中文', '', 'last'];
    const records = names.map((name, i) => record(i, { name, n: i === 4 ? -0 : i + 0.5, big: -BigInt(i) * 2n ** 59n, mixed: i === 3 ? 3 : 's', huge: i === 1 ? 2n ** 70n : 1n }, { recordKey: `key-${i}-\u{1F600}` }));
    const wire = await recordsToWire(records);
    expect(wire.fields).toEqual(['name', 'n', 'big', 'mixed', 'huge']);
    expect(wire.keys).toHaveProperty('utf8');
    const name = wire.data[0] as PackedStrings;
    expect(name.utf8).toBeInstanceOf(Uint8Array);
    expect(Array.from(name.kinds ?? [])).toEqual([0, 0, 1, 0, 2, 0, 0, 0, 0]);
    expect((wire.data[1] as PackedNumbers).numbers).toBeInstanceOf(Float64Array);
    expect((wire.data[2] as PackedNumbers).numbers).toBeInstanceOf(BigInt64Array);
    // a column mixing strings and numbers, and bigints beyond 64 bits, cross value by value
    expect(Array.isArray(wire.data[3])).toBe(true);
    expect(Array.isArray(wire.data[4])).toBe(true);
    expect((wire.ordering as PackedNumbers).numbers).toBeInstanceOf(BigInt64Array);
    const buffers = wireBuffers(wire);
    expect(buffers.length).toBeGreaterThanOrEqual(8);
    const arrived = structuredClone(wire, { transfer: buffers });
    expect(name.utf8.byteLength).toBe(0); // transferred: the sender's copy is detached
    const back = recordsFromWire(arrived);
    expect(back).toEqual(records.map(defined));
    expect(Object.is((back[4] as HoodieRecord).data.n, -0)).toBe(true);
  });

  it('strings with lone surrogates cross as they are (UTF-8 cannot carry them)', () => {
    const values = ['a\uD800b', '\uDC00', 'ok'];
    const packed = packColumn(values);
    expect(packed).toBe(values);
    expect(columnBuffers(packed)).toEqual([]);
    expect(unpackColumn(structuredClone(packed))).toEqual(values);
    const numbers = [1, NaN, Infinity, null, -1e308];
    expect(unpackColumn(structuredClone(packColumn(numbers)))).toEqual(numbers);
    expect(unpackColumn(packColumn([]))).toEqual([]);
    const objects = [{ a: 1 }, null];
    expect(packColumn(objects)).toBe(objects);
  });

  it('a map of records (a merge\'s updates) arrives keyed by record key, in order', async () => {
    const records = mixed();
    const byKey = new Map(records.map((r) => [r.recordKey, r]));
    const wire = structuredClone(await recordsToWire(byKey));
    expect([...recordMapFromWire(wire)]).toEqual([...byKey].map(([k, r]) => [k, defined(r)]));
  });

  it('a merge spec keeps microsecond timestamps in data and ordering values', async () => {
    const schema = { type: 'record' as const, name: 'r', fields: [{ name: 't', type: { type: 'long' as const, logicalType: 'timestamp-micros' } }] };
    const t = new MicrosDate(1_700_000_000_123_456n);
    const spec = {
      instantTime: '20240101000000000', taskId: 1, partitionPath: 'p', fileName: 'f.parquet', schema, mergeMode: 'EVENT_TIME_ORDERING',
      orderingFields: ['t'], orderingKinds: [{ kind: 'micros', scale: 0 }], writer: {}, collectKeys: false,
      updates: new Map([['a', record(0, { t }, { recordKey: 'a', ordering: [t] })]]),
      inserts: [record(1, { t }, { ordering: [t] })],
    } as unknown as MergeFileGroupSpec;
    const back = mergeSpecFromWire(structuredClone(await mergeSpecToWire(spec)));
    const update = back.updates.get('a') as HoodieRecord;
    expect(update.data.t).toBeInstanceOf(MicrosDate);
    expect((update.data.t as MicrosDate).micros).toBe(t.micros);
    expect((update.ordering[0] as MicrosDate).micros).toBe(t.micros);
    expect(((back.inserts[0] as HoodieRecord).data.t as MicrosDate).micros).toBe(t.micros);
    expect(back.instantTime).toBe(spec.instantTime);
  });
});
