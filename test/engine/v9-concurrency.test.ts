// Optimistic concurrency on v9 tables (timeline layout 2): two Table objects on one store write at once. Disjoint
// file groups → both complete; the same group → the later completion fails with CONFLICT (it read the other's
// Avro commit metadata) and leaves nothing behind, or starts over with retryOnConflict. A writer whose heartbeat
// stopped is rolled back by the next one; a running one is left alone.
import { describe, expect, test } from 'vitest';
import { createTable, isLakeletError, memoryStorage, openTable, type Storage, type Table, type WriteResult } from '../../src/index.js';
import { manualClock } from '../../src/engine/clock.js';
import { timelineNames } from '../helpers/v9-timeline.js';

const SCHEMA = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }] };
const OPTIONS = { bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false } };

async function rows(table: Table): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['part', 'id', 'v'] })) out.push(`${r.part as string}|${r.id as string}|${String(r.v)}`);
  return out.sort();
}

async function twoWriters(type: 'COPY_ON_WRITE' | 'MERGE_ON_READ'): Promise<{ storage: Storage; a: Table; b: Table }> {
  const storage = memoryStorage();
  const t = await createTable(storage, { name: 'c', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, tableVersion: 9, metadataTable: false, ...OPTIONS });
  await t.upsert([{ id: 'x1', part: 'x', ts: 1, v: 1 }, { id: 'y1', part: 'y', ts: 1, v: 1 }], OPTIONS);
  return { storage, a: await openTable(storage), b: await openTable(storage) };
}

for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
  describe(`v9 ${type}: two writers at once`, () => {
    test('disjoint file groups: both commits land', async () => {
      const { storage, a, b } = await twoWriters(type);
      const [ra, rb] = await Promise.all([
        a.upsert([{ id: 'x1', part: 'x', ts: 2, v: 10 }], OPTIONS),
        b.upsert([{ id: 'y1', part: 'y', ts: 2, v: 30 }, { id: 'z1', part: 'z', ts: 2, v: 40 }], OPTIONS),
      ]);
      const t = await openTable(storage);
      expect(t.commits.map((c) => c.requestedTime)).toEqual(expect.arrayContaining([ra.instant, rb.instant]));
      expect(t.timeline.filter((i) => i.action === 'rollback' || i.state !== 'COMPLETED')).toEqual([]);
      expect(await rows(t)).toEqual(['x|x1|10', 'y|y1|30', 'z|z1|40']);
    });

    test('the same file group: one commits, the other fails with CONFLICT and leaves no trace', async () => {
      const { storage, a, b } = await twoWriters(type);
      const before = new Set((await storage.list('', { recursive: true })).map((f) => f.path));
      const results = await Promise.allSettled([
        a.upsert([{ id: 'x1', part: 'x', ts: 3, v: 100 }], OPTIONS),
        b.upsert([{ id: 'x1', part: 'x', ts: 4, v: 200 }], OPTIONS),
      ]);
      const won = results.filter((r): r is PromiseFulfilledResult<WriteResult> => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect([won.length, lost.length]).toEqual([1, 1]);
      expect(isLakeletError(lost[0]!.reason, 'CONFLICT')).toBe(true);
      const winner = won[0]!.value.instant;
      const fresh = (await storage.list('', { recursive: true })).map((f) => f.path).filter((p) => !before.has(p) && !p.endsWith('.hoodie_partition_metadata'));
      const t = await openTable(storage);
      const written = new Set(Object.values((await t.commitMetadata(winner)).partitionToWriteStats).flat().map((w) => w.path));
      // Only the winner's timeline files and the data files its commit names are new.
      expect(fresh.filter((p) => !(p.startsWith('.hoodie/timeline/') && p.includes(winner)) && !written.has(p))).toEqual([]);
      expect((await rows(t)).filter((r) => r.startsWith('x|x1|'))).toHaveLength(1);
    });

    test('retryOnConflict: the loser starts over on the new state and both updates land', async () => {
      const { storage, a, b } = await twoWriters(type);
      await Promise.all([
        a.upsert([{ id: 'x1', part: 'x', ts: 3, v: 100 }, { id: 'x3', part: 'x', ts: 3, v: 3 }], { ...OPTIONS, retryOnConflict: 3 }),
        b.upsert([{ id: 'x1', part: 'x', ts: 4, v: 200 }, { id: 'x4', part: 'x', ts: 4, v: 4 }], { ...OPTIONS, retryOnConflict: 3 }),
      ]);
      const t = await openTable(storage);
      expect(await rows(t)).toEqual(['x|x1|200', 'x|x3|3', 'x|x4|4', 'y|y1|1']);
      expect(t.timeline.every((i) => i.state === 'COMPLETED')).toBe(true);
    });
  });
}

test('v9: a pending write whose heartbeat stopped is rolled back by the next writer (its logs deleted); a running one is not', async () => {
  const now = Date.UTC(2026, 5, 1, 12);
  const clock = manualClock(now);
  const storage = memoryStorage();
  const t = await createTable(storage, { name: 'h', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, tableVersion: 9, metadataTable: false, ...OPTIONS, clock });
  const first = await t.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }], OPTIONS);
  const fileId = Object.values((await t.commitMetadata(first.instant)).partitionToWriteStats).flat()[0]!.fileId;
  // A writer that died after writing its log (named after its deltacommit) and its marker: heartbeat 61 s old.
  const dead = '20260601115800000';
  const deadLog = `part=x/.${fileId}_${dead}.log.1_0-1-0`;
  await storage.write(`.hoodie/timeline/${dead}.deltacommit.requested`, new Uint8Array(0));
  await storage.write(deadLog, new Uint8Array([1, 2, 3]));
  await storage.write(`.hoodie/.temp/${dead}/${deadLog}.marker.APPEND`, new Uint8Array(0));
  await storage.write(`.hoodie/.heartbeat/${dead}`, new TextEncoder().encode(String(now - 61_000)));
  // A writer that is alive: its heartbeat 59 s old.
  const alive = '20260601115800001';
  await storage.write(`.hoodie/timeline/${alive}.deltacommit.requested`, new Uint8Array(0));
  await storage.write(`.hoodie/.heartbeat/${alive}`, new TextEncoder().encode(String(now - 59_000)));
  await (await openTable(storage)).upsert([{ id: 'b', part: 'x', ts: 1, v: 2 }], { ...OPTIONS, clock });
  const names = await timelineNames(storage);
  expect(names.filter((n) => n.startsWith(dead))).toEqual([]);
  expect(names.filter((n) => n.startsWith(alive))).toEqual([`${alive}.deltacommit.requested`]);
  expect(names.filter((n) => /^\d{17}_\d{17}\.rollback$/.test(n))).toHaveLength(1);
  await expect(storage.head(deadLog)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  expect(await rows(await openTable(storage))).toEqual(['x|a|1', 'x|b|2']);
});
