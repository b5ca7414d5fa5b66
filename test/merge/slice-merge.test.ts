// The pure slice merge on bytes: base rows then the log blocks that count (uncommitted and later-than-T blocks
// skipped, corrupt regions as warnings); the plain-data visibility agrees with the timeline's own rule.
import { describe, expect, test } from 'vitest';
import { encodeLogBlock } from '../../src/format/log/block.js';
import { encodeAvroDataBlockContent } from '../../src/format/log/content.js';
import { encodeDeleteBlockContent } from '../../src/format/log/delete-block.js';
import { logVisibility, mergeSlice, wireLogVisibility, type WireLogVisibility } from '../../src/merge/slice-merge.js';
import { Timeline } from '../../src/timeline/timeline.js';

const t = (n: number): string => `2024010100000000${n}`;
const schemaText = JSON.stringify({
  type: 'record', name: 'r', fields: [{ name: '_hoodie_record_key', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'string' }],
});
const merge = { mode: 'EVENT_TIME_ORDERING' as const, orderingFields: ['ts'], orderingKinds: [{ kind: 'bigint' as const, scale: 0 }] };
const rec = (key: string, ts: bigint, v: string) => ({ _hoodie_record_key: key, ts, v });
const data = (n: number, records: ReturnType<typeof rec>[]) => encodeLogBlock('AVRO_DATA', { INSTANT_TIME: t(n), SCHEMA: schemaText }, encodeAvroDataBlockContent(schemaText, records));
const deletes = (n: number, keys: string[]) => encodeLogBlock('DELETE', { INSTANT_TIME: t(n) }, encodeDeleteBlockContent(keys.map((k) => ({ recordKey: k, partitionPath: '' }))));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
};
const wire = (completed: number[], asOf?: number): WireLogVisibility => ({ completedWrites: completed.map(t), timelineStart: t(1), asOf: asOf === undefined ? undefined : t(asOf) });
const view = (rows: Record<string, unknown>[]) => rows.map((r) => `${String(r._hoodie_record_key)}=${String(r.v)}@${String(r.ts)}`);

describe('mergeSlice', () => {
  const base = [[rec('a', 1n, 'a1'), rec('b', 1n, 'b1')], [rec('c', 1n, 'c1')]];
  const logs = [
    { path: 'p/.f_0.log.1_0-0-0', bytes: concat(data(2, [rec('a', 2n, 'a2'), rec('c', 0n, 'c-old')]), deletes(3, ['b'])) },
    { path: 'p/.f_0.log.2_0-0-0', bytes: concat(data(4, [rec('d', 1n, 'd1')]), data(5, [rec('a', 9n, 'pending')])) },
  ];

  test('base rows, then committed blocks in log order; event time keeps the newer version', async () => {
    const merged = await mergeSlice(base, { logs, visibility: logVisibility(wire([2, 3, 4])), merge, columns: undefined });
    expect(view(merged.rows)).toEqual(['a=a2@2', 'c=c1@1', 'd=d1@1']);
    expect(merged.warnings).toEqual([]);
  });

  test('as of T, later blocks do not count; without a base file only the logs merge', async () => {
    expect(view((await mergeSlice(base, { logs, visibility: logVisibility(wire([2, 3, 4, 5], 2)), merge, columns: undefined })).rows)).toEqual(['a=a2@2', 'b=b1@1', 'c=c1@1']);
    expect(view((await mergeSlice([], { logs, visibility: logVisibility(wire([2, 3, 4, 5])), merge, columns: undefined })).rows)).toEqual(['a=pending@9', 'c=c-old@0', 'd=d1@1']);
  });

  test('a corrupt region is skipped and reported; the blocks around it still merge', async () => {
    const bytes = concat(data(2, [rec('a', 2n, 'a2')]), new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]), data(4, [rec('e', 1n, 'e1')]));
    const merged = await mergeSlice(base, { logs: [{ path: 'p/.f_0.log.1_0-0-0', bytes }], visibility: logVisibility(wire([2, 4])), merge, columns: undefined });
    expect(view(merged.rows)).toEqual(['a=a2@2', 'b=b1@1', 'c=c1@1', 'e=e1@1']);
    expect(merged.warnings.map((w) => [w.code, w.path])).toEqual([['CORRUPT_LOG_BLOCK', 'p/.f_0.log.1_0-0-0']]);
  });
});

describe('wireLogVisibility', () => {
  test('rebuilt on the other side, it decides as Timeline.isCommittedWrite does (completed, pending, archived, rolled back)', () => {
    const tl = Timeline.fromFileNames([
      `${t(3)}.deltacommit.requested`, `${t(3)}.deltacommit.inflight`, `${t(3)}.deltacommit`,
      `${t(4)}.rollback.requested`, `${t(4)}.rollback`,
      `${t(5)}.compaction.requested`, `${t(5)}.commit`,
      `${t(6)}.deltacommit.requested`, `${t(6)}.deltacommit.inflight`,
      `${t(8)}.deltacommit.requested`, `${t(8)}.deltacommit.inflight`, `${t(8)}.deltacommit`,
    ]);
    const rebuilt = logVisibility(structuredClone(wireLogVisibility(tl, t(7))));
    expect(rebuilt.asOf).toBe(t(7));
    const decided = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => rebuilt.isCommittedWrite(t(n)));
    expect(decided).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => tl.isCommittedWrite(t(n))));
    expect(decided).toEqual([true, true, true, false, true, false, false, true, false]);
  });
});
