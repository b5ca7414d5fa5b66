// Orphan files (D12): clean removes the temp file a crashed write left and the data files and markers of a
// write that was rolled back while it kept writing — once they are older than the heartbeat timeout by the
// manual clock — and never a live writer's temp file or a pending write's files. Races are driven by a
// pausing store: a writer "crashes" by being held forever at a chosen call.
import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTable, openTable, type Table } from '../../src/index.js';
import { clean } from '../../src/engine/services/clean.js';
import { manualClock } from '../../src/engine/clock.js';
import { planOrphanFiles } from '../../src/engine/services/orphan-files.js';
import { nodeFsStorage } from '../../src/storage/node-fs.js';
import type { FileInfo, Storage } from '../../src/storage/storage.js';
import { Timeline } from '../../src/timeline/timeline.js';
import { call, pausingStorage } from '../helpers/pausing-storage.js';
import { engineContext } from '../../src/engine/context.js';

const TIMEOUT = 60_000;
const SCHEMA = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }] };
const NO_SERVICES = { clean: { automatic: false }, archive: { automatic: false } };

let dir: string;
let base: Storage;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lakelet-orphans-'));
  base = nodeFsStorage(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function newTable(): Promise<Table> {
  const table = await createTable(base, { name: 'orphans', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...NO_SERVICES });
  await table.upsert([{ id: 'a', part: 'x', ts: 1 }]);
  return table;
}

/** Every path on disk below the table (temp files included), outside the timeline folder's instant files. */
async function tree(): Promise<string[]> {
  return (await base.list('', { recursive: true, includeTemporary: true })).map((f) => f.path).filter((p) => !/^\.hoodie\/[^/]+$/.test(p));
}

async function ids(): Promise<string[]> {
  const out: string[] = [];
  for await (const r of (await openTable(base)).rows({ columns: ['id'] })) out.push(String(r.id));
  return out.sort();
}

const mtime = async (path: string): Promise<number> => (await stat(join(dir, path))).mtimeMs;

describe('clean removes orphan files once they are older than the heartbeat timeout', () => {
  it("a crashed write's temp file goes; a live writer's temp file (held before its rename) stays and is published", async () => {
    await newTable();
    // A crash between writing the temp file and renaming it leaves this (as kill -9 did in the field).
    const crashed = 'part=x/dead-0_0-0-0_20200101000000000.parquet.lakelet-tmp-crash1';
    await writeFile(join(dir, crashed), 'partial bytes');
    const crashedAt = Date.now() - 2 * TIMEOUT;
    await utimes(join(dir, crashed), crashedAt / 1000, crashedAt / 1000);

    // A live writer, held inside its data file's write: its temp file is on disk, fsynced, not yet renamed.
    let releaseRename!: () => void;
    let renameReached!: () => void;
    const reached = new Promise<void>((r) => (renameReached = r));
    const fsPromises = await import('node:fs/promises');
    const liveStore = nodeFsStorage(dir, {
      fs: {
        ...fsPromises,
        rename: (async (from: string, to: string) => {
          if (to.endsWith('.parquet')) {
            renameReached();
            await new Promise<void>((r) => (releaseRename = r));
          }
          return fsPromises.rename(from, to);
        }) as typeof fsPromises.rename,
      },
    });
    const live = (await openTable(liveStore)).upsert([{ id: 'b', part: 'y', ts: 1 }], NO_SERVICES);
    await reached;
    const liveTemp = (await tree()).find((p) => p.startsWith('part=y/') && p.includes('.lakelet-tmp-'));
    expect(liveTemp).toBeDefined();

    const clock = manualClock(Math.max(Date.now(), await mtime(liveTemp as string)));
    await clean(engineContext(base), { clock, heartbeatTimeoutMs: TIMEOUT });
    const after = await tree();
    expect(after).not.toContain(crashed);
    expect(after).toContain(liveTemp);

    releaseRename();
    await live;
    expect(await ids()).toEqual(['a', 'b']);
    expect((await tree()).filter((p) => p.includes('.lakelet-tmp-'))).toEqual([]);
  });

  it('the files and markers a rolled-back writer wrote after its rollback go once old enough, and only those', async () => {
    await newTable();
    const before = new Set(await tree());
    // Writer A: held at its first data file; meanwhile B (single-writer timeout 0) rolls A's instant back.
    const a = pausingStorage(base, 'writer-a');
    const firstData = a.pauseAt(call('write', /^part=.*\.parquet$/));
    const writeA = (await openTable(a)).upsert([{ id: 'p', part: 'x', ts: 2 }, { id: 'q', part: 'z', ts: 2 }], { ...NO_SERVICES, clock: manualClock(Date.now()) });
    writeA.catch(() => undefined);
    const aInstant = /_(\d+)\.parquet$/.exec((await firstData.reached).path)?.[1] as string;
    await (await openTable(base)).upsert([{ id: 'c', part: 'y', ts: 3 }], { ...NO_SERVICES, heartbeatTimeoutMs: 0 });
    // A goes on writing (its second marker and data file), then is gone: held forever after its second data file.
    const killed = a.pauseAt(call('write', /^part=.*\.parquet$/), { phase: 'after', skip: 1 });
    firstData.release();
    await killed.reached;

    const orphans = (await tree()).filter((p) => !before.has(p) && (p.endsWith(`_${aInstant}.parquet`) || p.startsWith(`.hoodie/.temp/${aInstant}/`)));
    expect(orphans.filter((p) => p.endsWith('.parquet'))).toHaveLength(2);
    expect(orphans.filter((p) => p.includes('.marker.'))).toHaveLength(1);
    const times = await Promise.all(orphans.map(mtime));
    const [oldest, newest] = [Math.min(...times), Math.max(...times)];

    // None older than the timeout yet: all kept (the writer might still be alive).
    const clock = manualClock(oldest + TIMEOUT);
    await clean(engineContext(base), { clock, heartbeatTimeoutMs: TIMEOUT });
    for (const p of orphans) expect(await tree()).toContain(p);

    clock.set(newest + TIMEOUT + 1);
    await clean(engineContext(base), { clock, heartbeatTimeoutMs: TIMEOUT });
    const left = await tree();
    for (const p of orphans) expect(left).not.toContain(p);
    for (const p of before) if (!p.startsWith('.hoodie/.heartbeat/')) expect(left).toContain(p);
    expect(await ids()).toEqual(['a', 'c']);
  });

  it("a pending write's files stay however old they are (rolling it back is the rollback's job)", async () => {
    await newTable();
    const a = pausingStorage(base, 'writer-a');
    const killed = a.pauseAt(call('write', /^part=.*\.parquet$/), { phase: 'after' });
    void (await openTable(a)).upsert([{ id: 'p', part: 'x', ts: 2 }], { ...NO_SERVICES, clock: manualClock(Date.now()) }).catch(() => undefined);
    await killed.reached;
    const files = await tree();
    const clock = manualClock(Date.now() + 100 * TIMEOUT);
    await clean(engineContext(base), { clock, heartbeatTimeoutMs: TIMEOUT });
    expect(await tree()).toEqual(files);
  });
});

describe('planOrphanFiles', () => {
  const f = (path: string, lastModified?: number): FileInfo => ({ path, size: 1, kind: 'file', ...(lastModified === undefined ? {} : { lastModified }) });
  const timeline = Timeline.fromFileNames(['20240101000000000.commit', '20240102000000000.commit', '20240104000000000.commit.requested']);
  const now = 10 * TIMEOUT;

  it('keeps files of archived-era instants, active instants, kept paths and files of unknown age', () => {
    const plan = planOrphanFiles({
      timeline, now, minAgeMs: TIMEOUT,
      keep: new Set(['p/k-0_0-0-0_20240103000000000.parquet']),
      files: [
        f('p/old-0_0-0-0_20231231000000000.parquet', 0), // before the earliest active write: maybe archived
        f('p/c1-0_0-0-0_20240101000000000.parquet', 0), // completed
        f('p/pend-0_0-0-0_20240104000000000.parquet', 0), // pending
        f('p/k-0_0-0-0_20240103000000000.parquet', 0), // kept
        f('p/unknown-0_0-0-0_20240103000000000.parquet'), // no modification time
        f('p/dead-0_0-0-0_20240103000000000.parquet', 0), // rolled back: the one orphan
        f('p/young-0_0-0-0_20240103000000000.parquet', now - TIMEOUT),
        f('.hoodie/.temp/20240104000000000/p/pend-0_0-0-0_20240104000000000.parquet.marker.CREATE', 0),
        // named by the pending instant's markers, though its name says a dead instant
        f('.hoodie/.temp/20240104000000000/p/odd-0_0-0-0_20240103000000000.parquet.marker.CREATE', 0),
        f('p/odd-0_0-0-0_20240103000000000.parquet', 0),
      ],
    });
    expect(plan).toEqual({ tempFiles: [], dataFiles: ['p/dead-0_0-0-0_20240103000000000.parquet'], markers: [] });
  });

  it('with a heartbeat timeout of 0 (single writer) age does not matter, and an unknown age is no obstacle', () => {
    const plan = planOrphanFiles({
      timeline, now: 0, minAgeMs: 0, keep: new Set(),
      files: [f('p/a.parquet.lakelet-tmp-y', 5), f('p/b.parquet.lakelet-tmp-z'), f('p/dead-0_0-0-0_20240103000000000.parquet', 5), f('p/pend-0_0-0-0_20240104000000000.parquet', 0)],
    });
    expect(plan).toEqual({ tempFiles: ['p/a.parquet.lakelet-tmp-y', 'p/b.parquet.lakelet-tmp-z'], dataFiles: ['p/dead-0_0-0-0_20240103000000000.parquet'], markers: [] });
  });

  it('takes temp files anywhere once old, and dead markers with the data files they name', () => {
    const plan = planOrphanFiles({
      timeline, now, minAgeMs: TIMEOUT, keep: new Set(),
      files: [
        f('.hoodie/20240105000000000.commit.lakelet-tmp-x', 0),
        f('p/a.parquet.lakelet-tmp-y', now - 1),
        f('.hoodie/.temp/20240103000000000/p/.f1_20240101000000000.log.2_0-0-0.marker.APPEND', 0),
        f('p/.f1_20240101000000000.log.2_0-0-0', 0),
        f('.hoodie/.temp/20240103000000000/p/gone-0_0-0-0_20240103000000000.parquet.marker.CREATE', 0),
      ],
    });
    expect(plan).toEqual({
      tempFiles: ['.hoodie/20240105000000000.commit.lakelet-tmp-x'],
      dataFiles: ['p/.f1_20240101000000000.log.2_0-0-0'],
      markers: ['.hoodie/.temp/20240103000000000/p/.f1_20240101000000000.log.2_0-0-0.marker.APPEND', '.hoodie/.temp/20240103000000000/p/gone-0_0-0-0_20240103000000000.parquet.marker.CREATE'],
    });
  });
});
