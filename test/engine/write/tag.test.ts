// Tagging through the Index interface: writes that do not tag never look keys up; deletes by key reach every
// group holding the key (from the index when it can say, else from every slice's keys); lookups route
// updates and inserts; progress is reported; a global index's partition move goes through the move rule.
import { expect, test } from 'vitest';
import { createTable, memoryStorage } from '../../../src/index.js';
import { fileGroupKey, type FileSlice } from '../../../src/file-group/file-slice.js';
import { loadTableState } from '../../../src/engine/context.js';
import { resolveWriteOptions } from '../../../src/engine/write/write-options.js';
import { tagWith, type KeyLocator, type TagInput } from '../../../src/engine/write/tag.js';
import { createIndex } from '../../../src/engine/write/index-factory.js';
import type { HoodieRecord } from '../../../src/merge/hoodie-record.js';
import type { TaggedRecords } from '../../../src/index/tagging.js';

const SCHEMA = { type: 'record', name: 't', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }] };
const rec = (recordKey: string, partitionPath: string, isDelete = false): HoodieRecord => ({ recordKey, partitionPath, data: { id: recordKey, part: partitionPath.slice(5), ts: 1n }, ordering: [1n], isDelete, index: 0 });

/** A table with k1 in part=a and k2, k3 in part=b (two file groups), and a TagInput over it. */
async function input(overrides: Partial<TagInput> = {}): Promise<{ input: TagInput; progress: string[]; group: (p: string) => string }> {
  const t = await createTable(memoryStorage(), { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA });
  await t.bulkInsert([{ id: 'k1', part: 'a', ts: 1n }, { id: 'k2', part: 'b', ts: 1n }, { id: 'k3', part: 'b', ts: 1n }]);
  const state = await loadTableState(t.storage);
  const slices = (await state.fileSystemView()).latestSlices();
  const sliceOf = new Map<string, FileSlice>(slices.map((s) => [fileGroupKey(s.partitionPath, s.fileId), s]));
  const progress: string[] = [];
  const options = resolveWriteOptions({ onProgress: (p) => progress.push(`${p.phase} ${p.done}/${p.total}`) });
  const group = (p: string) => {
    const s = slices.find((x) => x.partitionPath === p) as FileSlice;
    return `${p}:${s.fileId}`;
  };
  return { input: { state, operation: 'UPSERT', records: [], byKey: false, slices, sliceOf, merge: { orderingFields: ['ts'], orderingKinds: [{ kind: 'bigint', scale: 0 }] }, options, ...overrides }, progress, group };
}

function shape(t: TaggedRecords): { updates: string[]; inserts: string[] } {
  const updates: string[] = [];
  for (const [g, byKey] of t.updates) for (const r of byKey.values()) updates.push(`${g.replace('\u0000', ':')} ${r.recordKey}${r.isDelete ? ' delete' : ''}`);
  return { updates, inserts: t.inserts.map((r) => `${r.partitionPath}/${r.recordKey}`) };
}

const refusing: KeyLocator = {
  locate: () => Promise.reject(new Error('looked up')),
  locateEverywhere: () => Promise.reject(new Error('looked up')),
};

test('inserts, bulk inserts and overwrites are not tagged (the locator is never asked)', async () => {
  const { input: base, progress } = await input();
  for (const operation of ['INSERT', 'BULK_INSERT', 'INSERT_OVERWRITE']) {
    const t = await tagWith({ ...base, operation, records: [rec('k1', 'part=a'), rec('k9', 'part=a', true)] }, false, refusing);
    expect(shape(t)).toEqual({ updates: [], inserts: ['part=a/k1'] });
  }
  expect(progress).toEqual([]);
});

test('a lookup routes updates and inserts, and reports index progress', async () => {
  const { input: base, progress, group } = await input();
  const records = [rec('k1', 'part=a'), rec('k4', 'part=b')];
  let asked: string[] = [];
  const t = await tagWith({ ...base, records }, false, {
    locate: async (rs) => {
      asked = rs.map((r) => r.recordKey);
      const s = base.slices.find((x) => x.partitionPath === 'part=a') as FileSlice;
      return new Map([[`part=a\u0000k1`, { partitionPath: 'part=a', fileId: s.fileId, baseInstantTime: s.baseInstantTime }]]);
    },
  });
  expect(asked).toEqual(['k1', 'k4']);
  expect(shape(t)).toEqual({ updates: [`${group('part=a')} k1`], inserts: ['part=b/k4'] });
  expect(progress).toEqual(['index 0/2', 'index 2/2']);
});

test('deletes by key: from the locator when it knows every location, else from the keys of every slice', async () => {
  const { input: base, group } = await input({ operation: 'DELETE', byKey: true });
  const records = [rec('k2', ''), rec('k3', ''), rec('nope', '')];
  const fromSlices = await tagWith({ ...base, records }, true, { locate: () => Promise.reject(new Error('no lookup for deletes by key')) });
  expect(shape(fromSlices)).toEqual({ updates: [`${group('part=b')} k2 delete`, `${group('part=b')} k3 delete`], inserts: [] });
  const fromIndex = await tagWith({ ...base, records }, true, {
    locate: () => Promise.reject(new Error('no lookup for deletes by key')),
    locateEverywhere: async (keys) => keys.filter((k) => k === 'k3').map((recordKey) => ({ recordKey, partitionPath: 'part=x', fileId: 'f9' })),
  });
  expect(shape(fromIndex)).toEqual({ updates: ['part=x:f9 k3 delete'], inserts: [] });
});

test('every index type tags the same table alike (a global one moves k1 from part=a to part=b)', async () => {
  const { input: base, group } = await input();
  const records = [rec('k1', 'part=b'), rec('k2', 'part=b'), rec('k5', 'part=a')];
  for (const type of ['BLOOM', 'SIMPLE'] as const) {
    expect(shape(await createIndex(type).tag({ ...base, records }))).toEqual({ updates: [`${group('part=b')} k2`], inserts: ['part=b/k1', 'part=a/k5'] });
  }
  for (const type of ['GLOBAL_BLOOM', 'GLOBAL_SIMPLE', 'IN_MEMORY', 'RECORD_INDEX'] as const) {
    // Equal ordering values: the incoming record wins (Hudi's tie rule), so the move happens.
    expect(shape(await createIndex(type).tag({ ...base, records })), type).toEqual({
      updates: [`${group('part=a')} k1 delete`, `${group('part=b')} k2`],
      inserts: ['part=b/k1', 'part=a/k5'],
    });
  }
});
