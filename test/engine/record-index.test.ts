// The persistent record-level index against tables: lookups equal a full scan after random operation
// sequences (both table types), stale indexes (missing manifest, foreign commits, crashes, rollbacks,
// restores) are detected and repaired, and a small upsert reads only the shards and files it needs.
import { describe, expect, test } from 'vitest';
import { ensureCurrent, lookupLocations, readAllEntries, readRecordIndexManifest, sliceKeyReader } from '../../src/engine/write/record-index.js';
import { TableState } from '../../src/engine/table-state.js';
import { RECORD_INDEX_DIR, RECORD_INDEX_MANIFEST } from '../../src/layout.js';
import { createTable, LakeletError, memoryStorage, openTable, type Storage, type Table, type TableType } from '../../src/index.js';
import { copyStorage, describeError, faultyStorage, isInjectedFault } from '../helpers/storage-faults.js';
import { CrashModel, mrow } from '../helpers/crash-model.js';
import { checkReads, checkRecordIndex } from '../helpers/crash-oracle.js';
import { Random } from '../helpers/random.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'ri',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'part', type: 'string' },
    { name: 'ts', type: 'long' },
    { name: 'v', type: ['null', 'double'], default: null },
  ],
};
const PARTS = ['a', 'b', 'c'];

async function newTable(type: TableType, storage: Storage = memoryStorage(), extra: object = {}): Promise<{ storage: Storage; table: Table }> {
  const table = await createTable(storage, {
    name: 'ri', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, index: 'RECORD_INDEX',
    bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false }, ...extra,
  });
  return { storage, table };
}

const fmt = (locs: readonly { partitionPath: string; fileId: string }[]): string[] => locs.map((l) => `${l.partitionPath}/${l.fileId}`).sort();

/** key → sorted group locations, from reading every latest slice. */
async function fullScan(storage: Storage): Promise<Map<string, string[]>> {
  const state = await TableState.load(storage);
  const readKeys = await sliceKeyReader(state);
  const out = new Map<string, string[]>();
  for (const s of (await state.fileSystemView()).latestSlices()) {
    for (const k of await readKeys(s)) {
      const locs = out.get(k) ?? [];
      const loc = `${s.partitionPath}/${s.fileId}`;
      if (!locs.includes(loc)) locs.push(loc);
      out.set(k, locs.sort());
    }
  }
  return out;
}

/** Bring the index current (as a write would), check its entries and lookups equal a full scan; returns how. */
async function checkIndex(storage: Storage, probe: string[], label: string): Promise<string> {
  const state = await TableState.load(storage);
  // As the tests' writes (RI): single-writer heartbeat timeout, so a commit lock a crash left is broken at once.
  const snap = await ensureCurrent(state, { heartbeatTimeoutMs: 0 });
  const scan = await fullScan(storage);
  const entries = await readAllEntries(storage, snap.manifest);
  expect(new Map([...entries].map(([k, v]) => [k, fmt(v)])), `${label}: entries`).toEqual(scan);
  expect(snap.manifest.keyCount, `${label}: keyCount`).toBe(scan.size);
  const found = await lookupLocations(await TableState.load(storage), probe);
  const expected = new Map(probe.filter((k) => scan.has(k)).map((k) => [k, scan.get(k)!]));
  expect(new Map([...found].map(([k, v]) => [k, fmt(v)])), `${label}: lookup`).toEqual(expected);
  const manifest = await readRecordIndexManifest(storage);
  // Stamped with the latest write; compactions after it move no key and may be left for the next update.
  const writes = state.timeline.completedWrites();
  const at = writes.findIndex((w) => w.requestedTime === manifest?.instant);
  expect(at >= 0 || (writes.length === 0 && manifest?.instant === null), `${label}: manifest instant ${manifest?.instant}`).toBe(true);
  for (const w of writes.slice(at + 1)) expect((await state.commitMetadata(w)).compacted, `${label}: ${w.requestedTime} after the manifest`).toBe(true);
  return snap.source;
}

const row = (id: string, part: string, ts: number, v = ts) => ({ id, part, ts, v });
/** Tables opened with openTable() write with BLOOM unless told otherwise. */
// Single-writer crash recovery: a pending write from a crashed writer is rolled back at once.
const RI = { index: 'RECORD_INDEX', heartbeatTimeoutMs: 0 } as const;

describe('record index against a full scan', () => {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`random sequences (${type})`, { timeout: 120_000 }, async () => {
      const seen = new Set<string>();
      for (let seed = 1; seed <= 6; seed++) {
        const rnd = new Random(seed * 7919 + (type === 'COPY_ON_WRITE' ? 0 : 1));
        const { storage, table } = await newTable(type, memoryStorage(), { smallFileLimit: rnd.chance(0.5) ? 1 : 2 * 1024 * 1024, rowGroupRows: 1 + rnd.int(5) });
        const key = () => `k${String(rnd.int(30)).padStart(2, '0')}`;
        const savepoints: string[] = [];
        let fresh = 0;
        let writes = 0;
        for (let step = 0; step < 24; step++) {
          const label = `${type} seed ${seed} step ${step}`;
          const what = rnd.next();
          let wrote = true;
          if (what < 0.35) {
            await table.upsert(Array.from({ length: 1 + rnd.int(8) }, () => row(key(), rnd.pick(PARTS), rnd.int(5))));
          } else if (what < 0.45) {
            // Non-deduplicating insert: a key may land in a second group (the index keeps both).
            await table.insert(Array.from({ length: 1 + rnd.int(3) }, () => row(rnd.chance(0.3) ? key() : `f${fresh++}`, rnd.pick(PARTS), rnd.int(5))));
          } else if (what < 0.55) {
            await table.delete(Array.from({ length: 1 + rnd.int(4) }, key));
          } else if (what < 0.62) {
            const p = rnd.pick(PARTS);
            if (rnd.chance(0.2)) await table.insertOverwriteTable([row(`o${fresh++}`, p, 1)]);
            else await table.insertOverwrite([row(`o${fresh++}`, p, 1), row(key(), p, 1)], { partitions: [`part=${p}`] });
          } else if (what < 0.72) {
            wrote = false;
            if (writes === 0 || savepoints.includes(table.commits.at(-1)?.requestedTime ?? '')) continue;
            await table.rollback();
          } else if (what < 0.8) {
            wrote = false;
            if (type === 'MERGE_ON_READ') await table.compact();
          } else if (what < 0.88) {
            wrote = false;
            if (writes === 0 || savepoints.includes(table.commits.at(-1)?.requestedTime ?? '')) continue;
            savepoints.push((await table.savepoint()).instant);
          } else {
            wrote = false;
            if (savepoints.length === 0) continue;
            const sp = rnd.pick(savepoints);
            await table.restore(sp);
            savepoints.splice(savepoints.indexOf(sp) + 1);
          }
          if (wrote) writes++;
          const probe = [...Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, '0')}`), 'missing', `f${fresh - 1}`];
          const how = await checkIndex(storage, probe, label);
          seen.add(how);
          if ([...(await fullScan(storage)).values()].some((l) => l.length > 1)) seen.add('multi-location');
          // A write with RECORD_INDEX leaves the index current: nothing to replay or rebuild.
          if (wrote) expect(how, `${label}: after a write`).toBe('current');
        }
      }
      // The sequences went through every path: current, rebuilt (rollback/restore) and keys in two groups.
      expect([...seen].sort()).toEqual(expect.arrayContaining(['current', 'multi-location', 'rebuilt']));
    });
  }
});

describe('stale indexes are detected and repaired', () => {
  test('a deleted manifest is rebuilt; a corrupt shard is rebuilt', async () => {
    const { storage, table } = await newTable('COPY_ON_WRITE');
    await table.upsert(PARTS.flatMap((p, i) => [row(`x${i}`, p, 1), row(`y${i}`, p, 1)]));
    await storage.delete(RECORD_INDEX_MANIFEST);
    expect(await checkIndex(storage, ['x0', 'y2', 'zz'], 'no manifest')).toBe('rebuilt');
    const manifest = (await readRecordIndexManifest(storage))!;
    const shard = manifest.shards.find((s) => s !== null)!;
    const bytes = await storage.read(`${RECORD_INDEX_DIR}/${shard}`);
    bytes[bytes.length - 6] = (bytes[bytes.length - 6] ?? 0) ^ 0xff;
    await storage.write(`${RECORD_INDEX_DIR}/${shard}`, bytes);
    // Lookups touching the damaged shard rebuild it; the table keeps upserting correctly.
    const all = [...(await fullScan(storage)).keys()];
    const found = await lookupLocations(await TableState.load(storage), all);
    expect(found.size).toBe(all.length);
    await table.upsert([row('x0', 'a', 2, 99)]);
    expect(await checkIndex(storage, all, 'after corrupt shard')).toBe('current');
  });

  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`a commit written with another index is replayed (${type})`, async () => {
      const { storage, table } = await newTable(type);
      await table.upsert([row('a', 'a', 1), row('b', 'b', 1), row('c', 'c', 1)]);
      // BLOOM is not global: it moves nothing, but writes and deletes groups the index does not hear about.
      await table.upsert([row('d', 'a', 1), row('a', 'a', 2)], { index: 'BLOOM' });
      await table.delete(['b'], { index: 'GLOBAL_SIMPLE' });
      const before = await readRecordIndexManifest(storage);
      expect(before?.instant).not.toBe(table.commits.at(-1)?.requestedTime);
      expect(await checkIndex(storage, ['a', 'b', 'c', 'd'], 'foreign commits')).toBe('replayed');
      // A partition move through the repaired index leaves one copy.
      await table.upsert([row('d', 'c', 5)]);
      const rows: string[] = [];
      for await (const r of table.rows({ columns: ['id', 'part'] })) rows.push(`${r.id}@${r.part}`);
      expect(rows.sort()).toEqual(['a@a', 'c@c', 'd@c']);
      expect(await checkIndex(storage, ['a', 'b', 'c', 'd'], 'after move')).toBe('current');
    });
  }

  test('a crash between the shard files and the manifest leaves the old manifest valid; the next write catches up', async () => {
    const inner = memoryStorage();
    let failManifest = false;
    const storage: Storage = Object.create(inner) as Storage;
    Object.assign(storage, {
      label: inner.label, readOnly: false,
      head: (p: string) => inner.head(p), read: (p: string, r?: { start: number; end: number }) => inner.read(p, r), list: (p: string, o?: { recursive?: boolean }) => inner.list(p, o),
      delete: (p: string) => inner.delete(p), writeIfAbsent: (p: string, b: Uint8Array) => inner.writeIfAbsent(p, b),
      write: async (p: string, b: Uint8Array) => {
        if (failManifest && p === RECORD_INDEX_MANIFEST) throw new LakeletError('STORAGE', 'injected: crash before the manifest');
        return inner.write(p, b);
      },
    });
    const { table } = await newTable('MERGE_ON_READ', storage);
    await table.upsert(PARTS.map((p, i) => row(`k${i}`, p, 1)));
    const good = await readRecordIndexManifest(storage);
    failManifest = true;
    // The commit is visible before the index update: its failure does not fail the write.
    await table.upsert([row('k0', 'b', 2), row('new', 'c', 1)]);
    failManifest = false;
    // The commit is visible; the manifest is the old one, and every shard file it names is intact.
    expect(table.commits.length).toBe(2);
    expect(await readRecordIndexManifest(storage)).toEqual(good);
    const orphans = (await storage.list(RECORD_INDEX_DIR)).filter((f) => !f.path.endsWith('manifest.json') && !good!.shards.some((s) => s !== null && f.path.endsWith(s)));
    expect(orphans.length).toBeGreaterThan(0);
    await readAllEntries(storage, good!);
    expect(await checkIndex(storage, ['k0', 'k1', 'k2', 'new'], 'after crash')).toBe('replayed');
    // Orphans of the crashed update are gone once a later index write collected them.
    const names = new Set((await storage.list(RECORD_INDEX_DIR)).map((f) => f.path));
    for (const o of orphans) expect(names.has(o.path)).toBe(false);
  });

  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`a crash at any storage call of a write leaves an index that is repaired (${type})`, { timeout: 120_000 }, async () => {
      const { storage: base, table } = await newTable(type);
      const first = PARTS.flatMap((p, i) => [mrow(`k${i}`, p, 1), mrow(`j${i}`, p, 1)]);
      const model = new CrashModel(true);
      model.upsert(first, (await table.upsert(first.map((r) => row(r.id, r.part, 1)))).instant);
      const known = new Set(table.commits.map((c) => c.requestedTime));
      const act = (t: Table) => t.upsert([row('k0', 'c', 2), row('n', 'a', 1)], RI).then(() => t.delete(['j1'], RI));
      const counting = faultyStorage(await copyStorage(base, (files) => memoryStorage({ files })));
      await act(await openTable(counting));
      for (let n = 1; n <= counting.calls; n++) {
        const copy = await copyStorage(base, (files) => memoryStorage({ files }));
        const faulty = faultyStorage(copy, n);
        // The only acceptable failure is the injected fault (a TypeError on the recovery path is a bug).
        await openTable(faulty).then(act).catch((err: unknown) => {
          expect(isInjectedFault(err, faulty), `crash at call ${n}: ${describeError(err)}`).toBe(true);
        });
        // Which of the two writes landed: the model after 0, 1 or 2 of them.
        const landed = (await openTable(copy)).commits.map((c) => c.requestedTime).filter((t) => !known.has(t));
        const expected = model.clone();
        if (landed[0]) expected.upsert([mrow('k0', 'c', 2), mrow('n', 'a', 1)], landed[0]);
        if (landed[1]) expected.deleteIds(['j1'], landed[1]);
        await checkReads(copy, expected, { label: `crash at call ${n}`, type, latestOnly: true });
        await checkIndex(copy, ['k0', 'k1', 'j1', 'j2', 'n'], `crash at call ${n}`);
        await checkRecordIndex(copy, expected, `crash at call ${n}`);
        // And the next write through the repaired index keeps the table right.
        const t = await openTable(copy);
        const next = await t.upsert([row('k0', 'b', 9), row('j1', 'a', 9)], RI);
        expected.upsert([mrow('k0', 'b', 9), mrow('j1', 'a', 9)], next.instant);
        await checkReads(copy, expected, { label: `crash at call ${n}: next write`, type, latestOnly: true });
        await checkRecordIndex(copy, expected, `crash at call ${n}: next write`);
      }
    });
  }

  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`rollback and restore are detected (${type})`, async () => {
      const { storage, table } = await newTable(type);
      await table.upsert([row('a', 'a', 1), row('b', 'b', 1)]);
      const sp = await table.savepoint();
      await table.upsert([row('a', 'c', 2), row('c', 'c', 1)]);
      await table.delete(['b']);
      await table.rollback();
      expect(await checkIndex(storage, ['a', 'b', 'c'], 'rollback')).toBe('rebuilt');
      await table.upsert([row('d', 'a', 1)]);
      await table.restore(sp.instant);
      expect(await checkIndex(storage, ['a', 'b', 'c', 'd'], 'restore')).toBe('rebuilt');
      await table.upsert([row('a', 'b', 3)]);
      expect(await checkIndex(storage, ['a', 'b', 'c', 'd'], 'after restore')).toBe('current');
    });
  }

  test('the rollback of a failed write does not force a rebuild', async () => {
    const { storage, table } = await newTable('COPY_ON_WRITE');
    await table.upsert([row('a', 'a', 1), row('b', 'b', 1)]);
    // A write that fails after its commit started (bad partition for a DELETE_PARTITION is checked earlier;
    // use a pending instant left by a crash instead).
    const state = await TableState.load(storage);
    const { startWrite } = await import('../../src/engine/commit/commit-protocol.js');
    await startWrite(state, 'commit');
    await table.upsert([row('c', 'c', 1)]); // rolls the pending instant back first
    expect(table.commits.length).toBe(2);
    expect(await checkIndex(storage, ['a', 'b', 'c'], 'after failed write')).toBe('current');
  });
});

describe('O(batch) upserts', () => {
  test('an upsert of 3 keys into a 1000-row table reads ≤ 3 shard files and only the base files it rewrites', { timeout: 60_000 }, async () => {
    const inner = memoryStorage();
    const reads: string[] = [];
    const storage: Storage = {
      label: 'counting', readOnly: false,
      head: (p) => inner.head(p),
      read: (p, r) => {
        reads.push(p);
        return inner.read(p, r);
      },
      write: (p, b) => inner.write(p, b),
      writeIfAbsent: (p, b) => inner.writeIfAbsent(p, b),
      list: (p, o) => inner.list(p, o),
      delete: (p) => inner.delete(p),
    };
    const { table } = await newTable('COPY_ON_WRITE', storage, { smallFileLimit: 0 });
    for (let b = 0; b < 10; b++) await table.upsert(Array.from({ length: 100 }, (_, i) => row(`key${String(b * 100 + i).padStart(4, '0')}`, PARTS[i % 3]!, 1)));
    const groups = (await table.fileSlices()).length;
    expect(groups).toBeGreaterThanOrEqual(30);
    reads.length = 0;
    const r = await table.upsert([row('key0007', PARTS[7 % 3]!, 2), row('key0512', PARTS[12 % 3]!, 2), row('key0999', PARTS[99 % 3]!, 2)]);
    expect(r.stats.updated).toBe(3);
    const shardReads = new Set(reads.filter((p) => p.startsWith(`${RECORD_INDEX_DIR}/`) && p !== RECORD_INDEX_MANIFEST));
    expect(shardReads.size).toBeLessThanOrEqual(3);
    const md = await table.commitMetadata(table.commits.at(-1)!);
    const rewritten = new Set(Object.values(md.partitionToWriteStats).flat().map((s) => s.fileId));
    const baseReads = new Set(reads.filter((p) => p.endsWith('.parquet')));
    expect(baseReads.size).toBeLessThanOrEqual(3);
    for (const p of baseReads) expect([...rewritten].some((id) => p.includes(id)), p).toBe(true);
    // And the same with a delete by key.
    reads.length = 0;
    await table.delete(['key0100']);
    expect(new Set(reads.filter((p) => p.startsWith(`${RECORD_INDEX_DIR}/`) && p !== RECORD_INDEX_MANIFEST)).size).toBeLessThanOrEqual(1);
    expect(new Set(reads.filter((p) => p.endsWith('.parquet'))).size).toBeLessThanOrEqual(1);
  });
});
