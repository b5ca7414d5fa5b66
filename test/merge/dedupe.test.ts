// merge/dedupe.ts: one record per key (per partition+key, or key alone for global indexes), the greatest
// ordering value winning, ties and incomparable values to the later record; the dedupeKeepMax kernel path
// (WASM and the JS twin) gives exactly the JS path's result on random batches with ties, NaN and deletes.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { mainThreadKernels } from '../../src/engine/kernels.js';
import { packKeys, type Kernels } from '../../src/kernels/kernels.js';
import { instantiateKernels } from '../../src/kernels/wasm-kernels.js';
import { dedupeJs, dedupeRecords, dedupeRecordsInTurns, DEDUPE_KERNEL_MIN_RECORDS } from '../../src/merge/dedupe.js';
import type { HoodieRecord } from '../../src/merge/hoodie-record.js';
import { compareValues, type OrderingKind } from '../../src/schema/compare.js';
import { MicrosDate } from '../../src/schema/timestamp-micros.js';
import { Random } from '../helpers/random.js';

const generated = fileURLToPath(new URL('../../src/kernels/generated/', import.meta.url));
let impls: Record<'wasm' | 'twin', Kernels>;
beforeAll(async () => {
  impls = { wasm: await instantiateKernels(readFileSync(`${generated}kernels.wasm`), 'simd'), twin: await mainThreadKernels('js') };
});

const rec = (index: number, recordKey: string, partitionPath: string, ordering: unknown[], isDelete = false): HoodieRecord =>
  ({ recordKey, partitionPath, data: { i: index }, ordering, isDelete, index });
const ids = (rs: readonly HoodieRecord[]): number[] => rs.map((r) => r.index);

/** An oracle written apart from the code: group by key, fold with the ordering rule, list winners by position. */
function oracle(records: readonly HoodieRecord[], global: boolean, kinds: readonly OrderingKind[]): number[] {
  const winner = new Map<string, HoodieRecord>();
  for (const r of records) {
    const key = global ? r.recordKey : `${r.partitionPath}|${r.recordKey.length}|${r.recordKey}`;
    const cur = winner.get(key);
    let later = true;
    if (cur) {
      for (let i = 0; i < kinds.length; i++) {
        const c = compareValues(kinds[i]!.kind, kinds[i]!.scale, r.ordering[i], cur.ordering[i]);
        if (c === undefined) break;
        if (c !== 0) { later = c > 0; break; }
      }
    }
    if (!cur || later) winner.set(key, r);
  }
  return [...winner.values()].map((r) => r.index).sort((a, b) => a - b);
}

type Gen = (rnd: Random) => unknown;
const KINDS: Record<string, { kinds: OrderingKind[]; value: Gen }> = {
  number: { kinds: [{ kind: 'number', scale: 0 }], value: (r) => (r.chance(0.1) ? NaN : r.chance(0.05) ? -0 : r.int(6) - 2) },
  bigint: { kinds: [{ kind: 'bigint', scale: 0 }], value: (r) => BigInt(r.int(6)) },
  bigint64: { kinds: [{ kind: 'bigint', scale: 0 }], value: (r) => (r.chance(0.5) ? 2n ** 60n + BigInt(r.int(4)) : -(2n ** 62n) + BigInt(r.int(4))) },
  date: { kinds: [{ kind: 'date', scale: 0 }], value: (r) => new MicrosDate(1_700_000_000_000_000n + BigInt(r.int(4))) },
  none: { kinds: [], value: () => undefined },
  string: { kinds: [{ kind: 'string', scale: 0 }], value: (r) => `v${r.int(4)}` },
};

function batch(rnd: Random, n: number, gen: Gen, deletes: boolean, ordered: boolean): HoodieRecord[] {
  const keyPool = Array.from({ length: Math.max(1, Math.floor(n / 3)) }, (_, i) => (rnd.chance(0.1) ? `k\u00e9-😀-${i}` : `k${i}`));
  return Array.from({ length: n }, (_, i) => {
    const del = deletes && rnd.chance(0.15);
    return rec(i, rnd.pick(keyPool), rnd.pick(['', 'p=1', 'p=2']), del || !ordered ? [] : [gen(rnd)], del);
  });
}

describe('dedupeRecords', () => {
  it('keeps the greatest ordering value per partition and key, ties to the later record, winners in input order', () => {
    const kinds: OrderingKind[] = [{ kind: 'bigint', scale: 0 }];
    const rs = [rec(0, 'a', 'p', [5n]), rec(1, 'b', 'p', [1n]), rec(2, 'a', 'p', [3n]), rec(3, 'a', 'q', [1n]), rec(4, 'b', 'p', [1n])];
    expect(ids(dedupeRecords(rs, false, kinds))).toEqual([0, 3, 4]);
    // a global index dedupes by key alone
    expect(ids(dedupeRecords(rs, true, kinds))).toEqual([0, 4]);
    // a delete (no ordering value) wins by arrival; a later record wins over the delete
    expect(ids(dedupeRecords([rec(0, 'a', 'p', [9n]), rec(1, 'a', 'p', [], true)], false, kinds))).toEqual([1]);
    expect(ids(dedupeRecords([rec(0, 'a', 'p', [], true), rec(1, 'a', 'p', [1n])], false, kinds))).toEqual([1]);
  });

  for (const [name, { kinds, value }] of Object.entries(KINDS)) {
    for (const global of [false, true]) {
      it(`kernel path = JS path = oracle on random batches (${name} ordering, ${global ? 'global' : 'partition+key'})`, () => {
        const rnd = new Random(name.length * 1000 + (global ? 7 : 3));
        for (let round = 0; round < 40; round++) {
          const n = 1 + rnd.int(round < 30 ? 60 : 3000);
          const rs = batch(rnd, n, value, name !== 'bigint64' || round % 2 === 0, name !== 'none');
          const expected = oracle(rs, global, kinds);
          expect(ids(dedupeJs(rs, global, kinds))).toEqual(expected);
          for (const k of Object.values(impls)) expect(ids(dedupeRecords(rs, global, kinds, k, 0))).toEqual(expected);
        }
      });
    }
  }

  it('takes the kernel only at the threshold and only for one numeric, bigint or date field (or none)', () => {
    const calls: number[] = [];
    const counting: Kernels = { ...impls.wasm, dedupeKeepMax: (keys, values) => { calls.push(values.length); return impls.wasm.dedupeKeepMax(keys, values); } };
    const small = batch(new Random(1), 100, KINDS.number!.value, true, true);
    dedupeRecords(small, false, KINDS.number!.kinds, counting);
    expect(calls).toEqual([]);
    const large = batch(new Random(2), DEDUPE_KERNEL_MIN_RECORDS, KINDS.number!.value, true, true);
    expect(ids(dedupeRecords(large, false, KINDS.number!.kinds, counting))).toEqual(oracle(large, false, KINDS.number!.kinds));
    expect(calls).toEqual([DEDUPE_KERNEL_MIN_RECORDS]);
    // strings, several fields: the JS path
    dedupeRecords(batch(new Random(3), 50, KINDS.string!.value, false, true), false, KINDS.string!.kinds, counting, 0);
    dedupeRecords([rec(0, 'a', '', [1, 2]), rec(1, 'a', '', [1, 1])], false, [{ kind: 'number', scale: 0 }, { kind: 'number', scale: 0 }], counting, 0);
    expect(calls).toHaveLength(1);
  });

  it('in turns: the same records as the one-go dedupe, packing through the given packer between event-loop turns', async () => {
    const large = batch(new Random(4), DEDUPE_KERNEL_MIN_RECORDS + 100, KINDS.number!.value, true, true);
    let turns = 0;
    let packed = 0;
    const turn = async (): Promise<void> => { turns++; };
    const pack = async (keys: readonly string[]) => { packed += keys.length; return packKeys(keys); };
    const kept = await dedupeRecordsInTurns(large, false, KINDS.number!.kinds, impls.wasm, pack, turn);
    expect(ids(kept)).toEqual(oracle(large, false, KINDS.number!.kinds));
    expect(ids(kept)).toEqual(ids(dedupeRecords(large, false, KINDS.number!.kinds, impls.wasm)));
    expect(packed).toBe(large.length);
    expect(turns).toBeGreaterThanOrEqual(2);
    // below the threshold, without kernels, or with lone surrogates: the JS path, nothing packed
    packed = 0;
    const small = batch(new Random(5), 100, KINDS.number!.value, true, true);
    expect(ids(await dedupeRecordsInTurns(small, true, KINDS.number!.kinds, impls.wasm, pack, turn))).toEqual(oracle(small, true, KINDS.number!.kinds));
    expect(ids(await dedupeRecordsInTurns(large, true, KINDS.number!.kinds, undefined, pack, turn))).toEqual(oracle(large, true, KINDS.number!.kinds));
    expect(packed).toBe(0);
  });

  it('keys that differ only in lone surrogates stay apart (UTF-8 packing would merge them: the JS path runs)', () => {
    const rs = [rec(0, 'a\uD800', '', [1]), rec(1, 'a\uD801', '', [1])];
    for (const k of Object.values(impls)) expect(ids(dedupeRecords(rs, true, [{ kind: 'number', scale: 0 }], k, 0))).toEqual([0, 1]);
  });
});
