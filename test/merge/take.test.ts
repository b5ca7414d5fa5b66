// The take-vector's output columns (merge/take.ts): a fixed-width old vector without nulls (a typed array) stays a
// typed array of the same kind — kept rows copied bit for bit, fresh rows stored as the writer's converter would —
// and falls back to a plain array when a fresh value does not fit, so the writer converts or refuses it as before.
import { describe, expect, it } from 'vitest';
import type { ColumnBatch } from '../../src/format/parquet/column-batch.js';
import type { HoodieRecord } from '../../src/merge/hoodie-record.js';
import { takeBatch, type TakePlan } from '../../src/merge/take.js';

const META = { instantTime: '20250101000000000', taskId: 0, partitionPath: 'p', fileName: 'f.parquet' };
const record = (data: Record<string, unknown>, i: number): HoodieRecord => ({ recordKey: `k${i}`, partitionPath: 'p', data, ordering: [], isDelete: false, index: i });

/** Old rows 0..3; the output keeps rows 3, 0 and 2 and puts the two fresh records between them. */
function planWith(fresh: HoodieRecord[]): TakePlan {
  return { take: Int32Array.from([3, -1, 0, -2, 2]), fresh, identity: false, updated: fresh.length, deleted: 0 };
}

function batch(): ColumnBatch {
  const nan = new Float64Array(1);
  new Uint32Array(nan.buffer).set([0x00000001, 0x7ff80000]); // a NaN with a payload: kept rows keep its bits
  return {
    length: 4,
    columns: {
      long: BigInt64Array.from([1n, -(2n ** 63n), 2n ** 62n, 4n]),
      double: Float64Array.from([0.5, -0, nan[0] as number, 1e300]),
      float: Float32Array.from([1.5, 2.5, 3.5, 4.5]),
      int: Int32Array.from([1, -2, 2 ** 31 - 1, -(2 ** 31)]),
      text: ['a', 'b', 'c', 'd'],
    },
  };
}

const NAMES = ['long', 'double', 'float', 'int', 'text'];

describe('takeBatch on typed vectors', () => {
  it('keeps typed arrays typed: kept rows bit for bit, fresh values converted as the writer would', () => {
    const old = batch();
    const fresh = [record({ long: 7, double: 8.25, float: 0.1, int: -9, text: 'x' }, 0), record({ long: 2n ** 63n - 1n, double: -0, float: 3, int: 0, text: 'y' }, 1)];
    const out = takeBatch(old, planWith(fresh), NAMES, META, 0);
    expect(out.length).toBe(5);
    expect(out.columns.long).toBeInstanceOf(BigInt64Array);
    expect([...(out.columns.long as BigInt64Array)]).toEqual([4n, 7n, 1n, 2n ** 63n - 1n, 2n ** 62n]);
    expect(out.columns.double).toBeInstanceOf(Float64Array);
    const doubles = out.columns.double as Float64Array;
    expect([doubles[0], doubles[1], doubles[2]]).toEqual([1e300, 8.25, 0.5]);
    expect(Object.is(doubles[3], -0)).toBe(true);
    expect([...new Uint32Array(doubles.buffer, 4 * 8, 2)]).toEqual([0x00000001, 0x7ff80000]);
    expect(out.columns.float).toBeInstanceOf(Float32Array);
    expect([...(out.columns.float as Float32Array)]).toEqual([4.5, Math.fround(0.1), 1.5, 3, 3.5]);
    expect(out.columns.int).toBeInstanceOf(Int32Array);
    expect([...(out.columns.int as Int32Array)]).toEqual([-(2 ** 31), -9, 1, 0, 2 ** 31 - 1]);
    expect(out.columns.text).toEqual(['d', 'x', 'a', 'y', 'c']);
  });

  it('falls back to a plain array of the same values when a fresh value does not fit the typed store', () => {
    const old = batch();
    // null, an unsafe integer, a fraction and a string: the writer converts (or refuses) each of these itself.
    const fresh = [record({ long: null, double: null, float: 'x', int: 1.5, text: 'x' }, 0), record({ long: 2 ** 60, double: 1, float: 1, int: 2 ** 31, text: 'y' }, 1)];
    const out = takeBatch(old, planWith(fresh), NAMES, META, 0);
    expect(out.columns.long).toEqual([4n, null, 1n, 2 ** 60, 2n ** 62n]);
    expect(Array.isArray(out.columns.double)).toBe(true);
    expect((out.columns.double as unknown[]).slice(0, 2)).toEqual([1e300, null]);
    expect(out.columns.float).toEqual([4.5, 'x', 1.5, 1, 3.5]);
    expect(out.columns.int).toEqual([-(2 ** 31), 1.5, 1, 2 ** 31, 2 ** 31 - 1]);
  });
});
