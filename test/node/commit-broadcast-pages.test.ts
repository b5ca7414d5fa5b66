// Commit notifications across two pages of one Chromium profile (issue 14): page B opens an OPFS table and
// listens with onCommit; page A writes it. B's listener fires (through the table's BroadcastChannel) with the
// commit's message, and B's next query shows the new rows without refresh(). The library is served from src/
// by the Vite dev server (the demo's, as test/web/two-pages.test.ts); every wait is on an event.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchPersistentChromium, startDemoServer, withLibrary } from '../web/demo-browser.js';

let server: ViteDevServer;
let context: BrowserContext;
let url: string;
let profile: string;

beforeAll(async () => {
  ({ server, url } = await startDemoServer());
  profile = await mkdtemp(join(tmpdir(), 'lakelet-commit-pages-'));
  context = await launchPersistentChromium(profile);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

test('page A commits to an OPFS table; page B\'s onCommit fires and its next query shows the commit', { timeout: 120_000 }, async () => {
  const [a, b] = [await context.newPage(), await context.newPage()];
  const errors: Error[] = [];
  for (const p of [a, b]) {
    p.on('pageerror', (e) => errors.push(e));
    await p.goto(url);
  }
  await withLibrary(a, `async (l) => {
    const t = await l.createTable(l.opfsStorage('commit-pages/t'), { name: 'events', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'],
      metadataTable: false, schema: { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'p', type: 'string' }, { name: 'ts', type: 'long' }] } });
    await t.upsert([{ id: 'a1', p: 'x', ts: 1 }], { bloomFilter: { numEntries: 100 } });
    globalThis.tableA = t;
  }`, null);
  // Page B: open the table, read it once, then wait for the next commit's event (a promise the test awaits later).
  const before = await withLibrary<string[]>(b, `async (l) => {
    const t = await l.openTable(l.opfsStorage('commit-pages/t'));
    globalThis.tableB = t;
    globalThis.heard = new Promise((resolve) => t.onCommit(resolve));
    const ids = [];
    for await (const r of t.rows({ columns: ['id'] })) ids.push(r.id);
    return ids;
  }`, null);
  expect(before).toEqual(['a1']);
  const written = await a.evaluate(`(async () => (await globalThis.tableA.upsert([{ id: 'a2', p: 'y', ts: 2 }], { bloomFilter: { numEntries: 100 } })).instant)()`) as string;
  const seen = await b.evaluate(`(async () => {
    const event = await globalThis.heard;
    const ids = [];
    for await (const r of globalThis.tableB.rows({ columns: ['id'] })) ids.push(r.id);
    const q = await globalThis.tableB.query({ columns: ['id'] });
    return { event, ids: ids.sort(), rows: q.numRows, commits: globalThis.tableB.commits.map((c) => c.requestedTime) };
  })()`) as { event: Record<string, unknown>; ids: string[]; rows: number; commits: string[] };
  expect(errors).toEqual([]);
  expect(seen.event).toMatchObject({ commitTime: written, tableName: 'events', commitActionType: 'commit', source: 'broadcast' });
  expect((seen.event.hoodieWriteStat as { partitionPath: string; numInserts: number }[]).map((s) => [s.partitionPath, s.numInserts])).toEqual([['p=y', 1]]);
  expect(seen.ids).toEqual(['a1', 'a2']);
  expect(seen.rows).toBe(2);
  expect(seen.commits).toContain(written);
});
