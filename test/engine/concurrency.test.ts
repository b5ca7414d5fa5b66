// Concurrent writers with no lock between them (two Table objects, as two processes or machines would
// have): optimistic concurrency as Hudi defines it. Disjoint file groups → both commit; the same file
// group → the later one fails with CONFLICT and leaves no trace, or retries with retryOnConflict. Running
// writers' pending instants are never rolled back by each other (heartbeats). Memory, node-fs and S3
// (an in-memory S3 with If-None-Match, since s3rver ignores it) stores.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createTable, isLakeletError, memoryStorage, openTable, s3Storage, type Storage, type Table } from '../../src/index.js';
import { nodeFsStorage } from '../../src/node/index.js';
import { manualClock } from '../../src/engine/clock.js';
import { heartbeatExpired } from '../../src/engine/commit/heartbeat.js';
import { formatInstantTime } from '../../src/timeline/instant-time.js';
import { S3Fake } from '../storage/s3-fake.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const STORES: Record<string, () => Storage> = {
  memory: () => memoryStorage(),
  'node-fs': () => {
    const dir = mkdtempSync(join(tmpdir(), 'lakelet-conc-'));
    dirs.push(dir);
    return nodeFsStorage(dir);
  },
  's3 (If-None-Match)': () => {
    const fake = new S3Fake();
    return s3Storage({ endpoint: 'http://fake-s3.test', bucket: 'lake', prefix: 't', region: 'us-east-1', credentials: { accessKeyId: 'AKIDFAKE', secretAccessKey: 'fake-secret' }, fetch: fake.fetch, retryDelayMs: 1 });
  },
};

const SCHEMA = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }] };
const OPTIONS = { bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false } };

async function rows(table: Table): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['part', 'id', 'v'] })) out.push(`${r.part}|${r.id}|${r.v}`);
  return out.sort();
}

async function twoWriters(make: () => Storage, type: 'COPY_ON_WRITE' | 'MERGE_ON_READ'): Promise<{ storage: Storage; a: Table; b: Table }> {
  const storage = make();
  const t = await createTable(storage, { name: 'c', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...OPTIONS });
  await t.upsert([{ id: 'x1', part: 'x', ts: 1, v: 1 }, { id: 'y1', part: 'y', ts: 1, v: 1 }], OPTIONS);
  return { storage, a: await openTable(storage), b: await openTable(storage) };
}

for (const [name, make] of Object.entries(STORES)) {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    describe(`${name}, ${type}: two writers at once`, () => {
      test('disjoint file groups: both commits land, neither rolls the other back', async () => {
        const { storage, a, b } = await twoWriters(make, type);
        const [ra, rb] = await Promise.all([
          a.upsert([{ id: 'x1', part: 'x', ts: 2, v: 10 }, { id: 'x2', part: 'x', ts: 2, v: 20 }], OPTIONS),
          b.upsert([{ id: 'y1', part: 'y', ts: 2, v: 30 }, { id: 'z1', part: 'z', ts: 2, v: 40 }], OPTIONS),
        ]);
        const t = await openTable(storage);
        expect(t.commits.map((c) => c.requestedTime)).toEqual(expect.arrayContaining([ra.instant, rb.instant]));
        expect(t.timeline.filter((i) => i.action === 'rollback' || i.state !== 'COMPLETED')).toEqual([]);
        expect(await rows(t)).toEqual(['x|x1|10', 'x|x2|20', 'y|y1|30', 'z|z1|40']);
      });

      test('the same file group: one commits, the other fails with CONFLICT and leaves no trace', async () => {
        const { storage, a, b } = await twoWriters(make, type);
        const before = new Set((await storage.list('', { recursive: true })).map((f) => f.path));
        const results = await Promise.allSettled([
          a.upsert([{ id: 'x1', part: 'x', ts: 3, v: 100 }], OPTIONS),
          b.upsert([{ id: 'x1', part: 'x', ts: 4, v: 200 }], OPTIONS),
        ]);
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(won.length).toBe(1);
        expect(lost.length).toBe(1);
        expect(isLakeletError(lost[0]!.reason, 'CONFLICT')).toBe(true);
        const t = await openTable(storage);
        const winner = (won[0] as PromiseFulfilledResult<{ instant: string }>).value.instant;
        expect(t.timeline.filter((i) => i.requestedTime !== winner && !before.has(`.hoodie/${i.fileName}`)).map((i) => i.fileName)).toEqual([]);
        const after = (await storage.list('', { recursive: true })).map((f) => f.path).filter((p) => !before.has(p));
        // Only the winner's files are new: its timeline files and the data files its commit names.
        const written = new Set(Object.values((await t.commitMetadata(winner)).partitionToWriteStats).flat().map((w) => w.path));
        expect(after.filter((p) => !p.includes(winner) && !written.has(p) && !p.endsWith('.hoodie_partition_metadata'))).toEqual([]);
        expect((await rows(t)).filter((r) => r.startsWith('x|x1|'))).toHaveLength(1);
      });

      test('retryOnConflict: the loser starts over on the new state and both updates land', async () => {
        const { storage, a, b } = await twoWriters(make, type);
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
}

test('a pending write whose heartbeat stopped is rolled back by the next writer; a running one is not', async () => {
  // The next writer's clock is pinned: heartbeats 61 s and 59 s old sit just past and just inside the 60 s timeout.
  const now = Date.UTC(2026, 0, 1, 12);
  const clock = manualClock(now);
  const storage = memoryStorage();
  const t = await createTable(storage, { name: 'h', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', schema: SCHEMA, ...OPTIONS, clock });
  await t.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }], OPTIONS);
  // A writer that died after requesting its instant: its last heartbeat 61 s ago.
  const dead = '20000101000000000';
  await storage.write(`.hoodie/${dead}.commit.requested`, new Uint8Array(0));
  await storage.write(`.hoodie/.heartbeat/${dead}`, new TextEncoder().encode(String(now - 61_000)));
  // A writer that is alive: its last heartbeat 59 s ago.
  const alive = '20000101000000001';
  await storage.write(`.hoodie/${alive}.commit.requested`, new Uint8Array(0));
  await storage.write(`.hoodie/.heartbeat/${alive}`, new TextEncoder().encode(String(now - 59_000)));
  await (await openTable(storage)).upsert([{ id: 'b', part: 'x', ts: 1, v: 2 }], { ...OPTIONS, clock });
  expect(clock.now()).toBe(now); // nothing waited: the ages above are the ones the writer saw
  const after = await openTable(storage);
  expect(after.timeline.find((i) => i.requestedTime === dead)).toBeUndefined();
  expect(after.timeline.find((i) => i.requestedTime === alive)?.state).toBe('REQUESTED');
  expect(after.timeline.filter((i) => i.action === 'rollback').length).toBe(1);
});

test('heartbeat ages at the timeout boundary: 59 s and 60 s alive, 61 s expired; a missing heartbeat counts from the instant', async () => {
  const storage = memoryStorage();
  const at = Date.UTC(2026, 0, 1, 12);
  const beat = '20260101115959000';
  await storage.write(`.hoodie/.heartbeat/${beat}`, new TextEncoder().encode(String(at)));
  const ages = [59_000, 60_000, 61_000];
  expect(await Promise.all(ages.map((age) => heartbeatExpired(storage, beat, 60_000, at + age)))).toEqual([false, false, true]);
  expect(await Promise.all(ages.map((age) => heartbeatExpired(storage, beat, 60_000, manualClock(at + age))))).toEqual([false, false, true]);
  // No heartbeat file: the instant's own time is when its writer was last known alive.
  const silent = formatInstantTime(new Date(at));
  expect(await Promise.all(ages.map((age) => heartbeatExpired(storage, silent, 60_000, at + age)))).toEqual([false, false, true]);
  // A shorter timeout moves the boundary with it.
  expect(await Promise.all([9_000, 11_000].map((age) => heartbeatExpired(storage, beat, 10_000, at + age)))).toEqual([false, true]);
});
