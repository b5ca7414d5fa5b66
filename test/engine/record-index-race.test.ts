// Record-index updates racing each other (issue 9, concurrent model seed COW 5151): two updates interleaved
// never delete each other's shard files, the manifest on storage names only files that exist, and the index
// equals a plain scan; a shard file missing when a write reads it makes that write rebuild the index instead
// of failing. Driven by pausing storage and a manual clock.
import { describe, expect, test } from 'vitest';
import { COMMIT_LOCK_PATH } from '../../src/layout.js';
import { ensureCurrent, readAllEntries, readRecordIndexManifest, sliceKeyReader } from '../../src/engine/write/record-index.js';
import { TableState } from '../../src/engine/table-state.js';
import { RECORD_INDEX_DIR, RECORD_INDEX_MANIFEST } from '../../src/layout.js';
import { createTable, memoryStorage, openTable, type Storage, type TableType } from '../../src/index.js';
import { manualClock } from '../../src/engine/clock.js';
import { call, pausingStorage } from '../helpers/pausing-storage.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'rir',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }],
};

async function indexedTable(type: TableType): Promise<{ raw: Storage; clock: ReturnType<typeof manualClock> }> {
  const raw = memoryStorage();
  const clock = manualClock();
  const table = await createTable(raw, {
    name: 'rir', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, index: 'RECORD_INDEX',
    bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false },
  });
  await table.upsert(['k0', 'k1', 'k2', 'k3'].map((id, i) => ({ id, part: 'x', ts: 1, v: i })), { clock, index: 'RECORD_INDEX' });
  clock.advance(1000);
  return { raw, clock };
}

/** key → sorted `partition/fileId` locations, from reading every latest slice. */
async function fullScan(storage: Storage): Promise<Map<string, string[]>> {
  const state = await TableState.load(storage);
  const readKeys = await sliceKeyReader(state);
  const out = new Map<string, string[]>();
  for (const s of (await state.fileSystemView()).latestSlices()) {
    for (const k of await readKeys(s)) out.set(k, [...(out.get(k) ?? []), `${s.partitionPath}/${s.fileId}`].sort());
  }
  return out;
}

const fmt = (entries: Map<string, { partitionPath: string; fileId: string }[]>) => new Map([...entries].map(([k, v]) => [k, v.map((l) => `${l.partitionPath}/${l.fileId}`).sort()]));

/** The manifest on storage names only shard files that exist, and the index brought current equals a scan. */
async function checkIndex(raw: Storage): Promise<void> {
  const manifest = await readRecordIndexManifest(raw);
  expect(manifest, 'a manifest').toBeDefined();
  if (!manifest) return;
  const files = new Set((await raw.list(RECORD_INDEX_DIR)).map((f) => f.path.slice(f.path.lastIndexOf('/') + 1)));
  const named = manifest.shards.filter((s): s is string => s !== null);
  expect(named.filter((s) => !files.has(s)), 'shard files the manifest names but storage lacks').toEqual([]);
  await readAllEntries(raw, manifest);
  const snapshot = await ensureCurrent(await TableState.load(raw));
  expect(fmt(await readAllEntries(raw, snapshot.manifest))).toEqual(await fullScan(raw));
}

describe('two record-index updates interleaved', () => {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`${type}: an update held before its manifest write and another update in between leave a complete index`, async () => {
      const { raw, clock } = await indexedTable(type);
      // Writer 1 commits and is held in its index update, right before it writes the manifest (its new shard
      // files are written).
      const s1 = pausingStorage(raw, 'w1');
      const held1 = s1.pauseAt(call('write', RECORD_INDEX_MANIFEST));
      const w1 = (await openTable(s1)).upsert([{ id: 'a1', part: 'a', ts: 2, v: 10 }, { id: 'k1', part: 'x', ts: 2, v: 11 }], { clock, index: 'RECORD_INDEX' });
      await held1.reached;
      clock.advance(1000);
      // Writer 2 (another partition: no conflict) runs until it finishes — or until it finds the commit lock
      // held, where it is held in turn.
      const s2 = pausingStorage(raw, 'w2');
      // A read of the lock right after a failed create of it: w2 found the lock held (the lock's `held()` check
      // also reads it, but after a create that succeeded and other calls).
      const waits2 = s2.pauseAt((c) => c.method === 'read' && c.path === COMMIT_LOCK_PATH && s2.calls[c.n - 2]?.method === 'writeIfAbsent' && s2.calls[c.n - 2]?.path === COMMIT_LOCK_PATH);
      const w2 = (await openTable(s2)).upsert([{ id: 'b1', part: 'b', ts: 3, v: 20 }, { id: 'k2', part: 'x', ts: 3, v: 21 }], { clock, index: 'RECORD_INDEX' });
      const first = await Promise.race([w2.then(() => 'w2 finished'), waits2.reached.then(() => 'w2 waits for the lock')]);
      held1.release();
      await w1;
      waits2.release();
      await w2;
      expect(['w2 finished', 'w2 waits for the lock']).toContain(first);
      await checkIndex(raw);
      // And the next indexed write works.
      clock.advance(1000);
      await (await openTable(raw)).upsert([{ id: 'k3', part: 'x', ts: 4, v: 30 }, { id: 'c1', part: 'c', ts: 4, v: 31 }], { clock, index: 'RECORD_INDEX' });
      await checkIndex(raw);
    });
  }

  test('a write whose index catch-up finds a shard file missing rebuilds the index', async () => {
    const { raw, clock } = await indexedTable('COPY_ON_WRITE');
    // A write whose index update fails leaves the index one write behind.
    const s = pausingStorage(raw, 'w');
    s.failAt(call('write', RECORD_INDEX_MANIFEST));
    await (await openTable(s)).upsert([{ id: 'a1', part: 'a', ts: 2, v: 10 }], { clock, index: 'RECORD_INDEX' });
    clock.advance(1000);
    const manifest = await readRecordIndexManifest(raw);
    const named = (manifest?.shards ?? []).filter((x): x is string => x !== null);
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) await raw.delete(`${RECORD_INDEX_DIR}/${name}`);
    await (await openTable(raw)).upsert([{ id: 'k1', part: 'x', ts: 3, v: 20 }, { id: 'b1', part: 'b', ts: 3, v: 21 }], { clock, index: 'RECORD_INDEX' });
    await checkIndex(raw);
  });
});
