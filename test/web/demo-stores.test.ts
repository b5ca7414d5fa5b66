// The demo page's stores end to end: in OPFS, in IndexedDB and in an S3 bucket (the loopback s3rver the test
// servers start) a merge-on-read table is created through the form, the generator writes updates and deletes,
// and what the page shows — record count, timeline marks, file layout, instant details, compaction's change —
// is checked against the library's own answers on the same store.
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { createInUi, generateInUi, openDemoPage, persistentDemo, ready, shownCount, withLibrary } from './demo-browser.js';

const demo = persistentDemo('lakelet-demo-stores-', { width: 1280, height: 900 });

/** A page with the demo loaded and the default store (OPFS) listed. */
const openPage = () => openDemoPage(demo.context, demo.url, 'body[data-state="empty"] #tables[data-listed]', true);

/** JS (for the page) building the root Storage of a store, as the demo does; `a` is the S3 settings. */
const ROOTS = {
  opfs: `l.opfsStorage('lakelet-demo')`,
  indexeddb: `l.indexedDbStorage('lakelet-demo')`,
  s3: `l.s3Storage({ endpoint: a.endpoint, bucket: 'lake', region: 'us-east-1', forcePathStyle: true, prefix: a.prefix, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } })`,
};
type StoreKind = keyof typeof ROOTS;

interface LibraryView {
  count: number;
  timeline: [string, string, string][];
  slices: [string, string, string, number][];
  catalog: string[];
}

/** What the library itself says about the table `name` of the store: records, timeline, file slices, catalog names. */
function libraryView(page: Page, kind: StoreKind, name: string, s3: { endpoint: string; prefix: string } | null): Promise<LibraryView> {
  return withLibrary<LibraryView>(page, `async (l, a) => {
    const root = ${ROOTS[kind]};
    const table = await l.openTable(l.prefixedStorage(root, a.name));
    let count = 0;
    for await (const _ of table.rows({ columns: ['uuid'] })) count++;
    const slices = (await table.fileSlices()).map((s) => [s.partitionPath, s.fileId, s.baseInstantTime, s.logFiles.length]);
    return {
      count,
      timeline: table.timeline.map((i) => [i.requestedTime, i.action, i.state.toLowerCase()]),
      slices: slices.sort((x, y) => (x[0] + x[1]).localeCompare(y[0] + y[1])),
      catalog: (await l.listTables(root)).map((e) => e.name),
    };
  }`, { name, ...(s3 ?? {}) });
}

/** The marks of the timeline picture: [instant, action, state] and whether the class names the action. */
function timelineMarks(page: Page): Promise<{ mark: [string, string, string]; classed: boolean }[]> {
  return page.$$eval('#timeline-picture .mark', (gs) => gs.map((g) => {
    const d = (g as SVGGElement).dataset;
    return { mark: [d.instant ?? '', d.action ?? '', d.state ?? ''] as [string, string, string], classed: g.classList.contains(`action-${d.action}`) && g.classList.contains(`state-${d.state}`) };
  }));
}

/** The slices of the layout picture: [partition, fileId, baseInstant, log files]. */
function layoutSlices(page: Page): Promise<[string, string, string, number][]> {
  return page.$$eval('#layout .slice', (els) => els.map((el) => {
    const d = (el as HTMLElement).dataset;
    return [d.partition ?? '', d.fileId ?? '', d.baseInstant ?? '', el.querySelectorAll('.file.log').length] as [string, string, string, number];
  }).sort((x, y) => (x[0] + x[1]).localeCompare(y[0] + y[1])));
}

const summary = async (page: Page) => page.$eval('#generate-summary', (el) => ({ ...(el as HTMLElement).dataset }));

/** Create a MOR table, generate, update and delete, check the pictures against the library, compact, check again. */
async function morFlow(page: Page, kind: StoreKind, name: string, s3: { endpoint: string; prefix: string } | null, table: { version: '6' | '9'; index: string }): Promise<void> {
  await createInUi(page, { name, type: 'MERGE_ON_READ', partitions: 'city', ...table });
  const config = await page.textContent('#config');
  expect(config).toContain('MERGE_ON_READ');
  expect(config).toContain(`${table.version} (timeline layout ${table.version === '9' ? 2 : 1})`);
  expect(config).toContain(table.index);
  expect(await page.getAttribute(`#tables-list tr[data-table="${name}"]`, 'class')).toContain('selected');

  await generateInUi(page, 400, { seed: 7 });
  expect(await summary(page)).toMatchObject({ inserted: '400', updated: '0', deleted: '0' });
  // 30% updates and 10% deletes of existing keys, skewed: one upsert (inserts + updates) and one delete.
  await generateInUi(page, 400, { updates: 30, deletes: 10, skewed: true, seed: 7 });
  expect(await summary(page)).toMatchObject({ inserted: '240', updated: '120', deleted: '40' });
  const lib = await libraryView(page, kind, name, s3);
  expect(lib.count).toBe(400 + 240 - 40);
  expect(await shownCount(page)).toBe(lib.count);
  expect(lib.catalog).toContain(name);

  // One mark per instant, in order, classed by action and state.
  const marks = await timelineMarks(page);
  expect(marks.map((m) => m.mark)).toEqual(lib.timeline);
  expect(marks.every((m) => m.classed)).toBe(true);
  expect(lib.timeline.map(([, a]) => a)).toEqual(['deltacommit', 'deltacommit', 'deltacommit']);
  // Every file slice the library reads, drawn, with its log files.
  expect(await layoutSlices(page)).toEqual(lib.slices);
  expect(lib.slices.some(([, , , logs]) => logs > 0)).toBe(true);

  // Clicking the second write's mark shows its commit metadata: the write stats add up to the batch.
  const second = lib.timeline[1]?.[0] as string;
  await page.click(`#timeline-picture .mark[data-instant="${second}"]`);
  await page.waitForSelector(`#instant[data-instant="${second}"] #instant-stats`);
  const stats = await page.$$eval('#instant-stats tbody tr', (trs) => trs.map((tr) => Array.from((tr as HTMLTableRowElement).cells, (c) => c.textContent ?? '')));
  expect(stats.reduce((n, r) => n + Number(r[3]), 0)).toBe(240);
  expect(stats.reduce((n, r) => n + Number(r[4]), 0)).toBe(120);
  expect(await page.getAttribute(`#timeline-picture .mark[data-instant="${second}"]`, 'class')).toContain('selected');

  // Compaction: the result object is shown, log files are gone from the layout, the count stays.
  await page.click('#compact');
  await ready(page);
  expect(await page.getAttribute('#service-result', 'data-service')).toBe('compact');
  expect(Number(await page.getAttribute('#service-result', 'data-files-added'))).toBeGreaterThan(0);
  expect(await page.textContent('#service-result pre')).toContain('logFilesCompacted');
  const after = await libraryView(page, kind, name, s3);
  expect(after.timeline.at(-1)?.slice(1)).toEqual(['commit', 'completed']);
  expect(after.count).toBe(lib.count);
  expect(await shownCount(page)).toBe(lib.count);
  expect(await layoutSlices(page)).toEqual(after.slices);
  // Every file group that had log files now has a base file of the compaction, and no log files remain.
  const compaction = after.timeline.at(-1)?.[0];
  for (const [partition, fileId, , logs] of lib.slices.filter(([, , , logs]) => logs > 0)) {
    expect(after.slices.find(([p, f]) => p === partition && f === fileId)).toEqual([partition, fileId, compaction, 0]);
  }
  expect(await page.locator('#layout .file.log').count()).toBe(0);
  expect((await timelineMarks(page)).map((m) => m.mark)).toEqual(after.timeline);

  // Clean and archive show their result objects too (null / [] when there was nothing to do).
  for (const service of ['clean', 'archive']) {
    await page.click(`#${service}`);
    await ready(page);
    expect(await page.getAttribute('#service-result', 'data-service')).toBe(service);
    expect(await page.textContent('#write-log-table tbody tr:first-child')).toContain(service);
  }
  expect(await shownCount(page)).toBe(lib.count);
}

describe('demo page: stores', () => {
  it('OPFS: a merge-on-read table through the form, generated updates and deletes, pictures, compaction', { timeout: 400_000 }, async () => {
    const { page, errors } = await openPage();
    await morFlow(page, 'opfs', 'mor_opfs', null, { version: '6', index: 'BLOOM' });
    await page.setViewportSize({ width: 1280, height: 1400 });
    await page.screenshot({ path: process.env.LAKELET_DEMO_STORES_SCREENSHOT ?? '/tmp/demo-stores-opfs.png', fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('OPFS: lists (and registers) a table folder that has no catalog entry, as earlier demos made them', { timeout: 200_000 }, async () => {
    const { page, errors } = await openPage();
    await withLibrary(page, `async (l) => {
      await l.createTable(l.opfsStorage('lakelet-demo/legacy_trips'), { name: 'legacy_trips', type: 'COPY_ON_WRITE', recordKey: 'uuid', orderingField: 'ts',
        schema: { type: 'record', name: 'r', fields: [{ name: 'uuid', type: 'string' }, { name: 'ts', type: 'long' }] } });
    }`, null);
    await page.reload();
    await page.waitForSelector('#tables[data-listed] tr[data-table="legacy_trips"]');
    const catalog = await withLibrary<string[]>(page, `async (l) => (await l.listTables(l.opfsStorage('lakelet-demo'))).map((e) => e.name)`, null);
    expect(catalog).toContain('legacy_trips');
    await page.click('#tables-list tr[data-table="legacy_trips"] button[data-action="open"]');
    await ready(page);
    expect(await page.textContent('#config')).toContain('legacy_trips');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('IndexedDB: the same flow on a version-9 table with the record index, listed after a reload', { timeout: 400_000 }, async () => {
    const { page, errors } = await openPage();
    await page.selectOption('#store-kind', 'indexeddb');
    await page.waitForSelector('#tables[data-listed][data-store="indexeddb"]');
    await morFlow(page, 'indexeddb', 'mor_idb', null, { version: '9', index: 'RECORD_INDEX' });
    await page.reload();
    await page.waitForSelector('#tables[data-listed]');
    await page.selectOption('#store-kind', 'indexeddb');
    await page.waitForSelector('#tables[data-listed][data-store="indexeddb"] tr[data-table="mor_idb"]');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a store chosen while the first OPFS listing still runs wins, whichever finishes last', { timeout: 200_000 }, async () => {
    const first = await openPage();
    await withLibrary(first.page, `async (l) => {
      await l.createTable(l.opfsStorage('lakelet-demo/opfs_only'), { name: 'opfs_only', type: 'COPY_ON_WRITE', recordKey: 'uuid', orderingField: 'ts',
        schema: { type: 'record', name: 'r', fields: [{ name: 'uuid', type: 'string' }, { name: 'ts', type: 'long' }] } });
    }`, null);
    await first.page.close();
    // OPFS is held until the test lets it go: the page's own first connect (OPFS) hangs while IndexedDB is chosen.
    const page = await demo.context.newPage();
    const errors: Error[] = [];
    page.on('pageerror', (e) => errors.push(e));
    await page.addInitScript(() => {
      const storage = navigator.storage;
      const getDirectory = storage.getDirectory.bind(storage);
      const w = window as unknown as { releaseOpfs?: () => void };
      const held = new Promise<void>((resolve) => { w.releaseOpfs = resolve; });
      storage.getDirectory = async () => { await held; return getDirectory(); };
    });
    await page.goto(demo.url);
    await page.selectOption('#store-kind', 'indexeddb');
    await page.waitForSelector('#tables[data-listed][data-store="indexeddb"][data-settled="1"]');
    await page.evaluate(() => (window as unknown as { releaseOpfs: () => void }).releaseOpfs());
    await page.waitForSelector('#tables[data-settled="2"]', { state: 'attached' });
    // The late OPFS listing changed nothing: IndexedDB stays connected and listed, OPFS's table is not shown.
    expect(await page.getAttribute('#tables', 'data-store')).toBe('indexeddb');
    expect(await page.getAttribute('#tables', 'data-listed')).toBe('true');
    expect(await page.locator('#tables-list tr[data-table="opfs_only"]').count()).toBe(0);
    expect(await page.locator('#error').isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('S3: connects with keys kept in the tab only, and runs the same flow on the bucket', { timeout: 400_000 }, async () => {
    const { page, errors } = await openPage();
    const s3 = { endpoint: inject('S3_URL'), prefix: `demo-${Date.now()}` };
    await page.selectOption('#store-kind', 's3');
    await page.fill('#s3-endpoint', s3.endpoint);
    await page.fill('#s3-bucket', 'lake');
    await page.fill('#s3-prefix', s3.prefix);
    await page.fill('#s3-access-key', 'S3RVER');
    await page.fill('#s3-secret', 'S3RVER-secret-value');
    await page.click('#store-connect');
    await page.waitForSelector('#tables[data-listed][data-store="s3"]');
    expect(await page.textContent('#tables-list')).toContain('No tables');
    // The secret left the form once connected, and is nowhere the page persists or shows.
    expect(await page.inputValue('#s3-secret')).toBe('');
    const kept = await page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length, href: location.href, cookie: document.cookie }));
    expect(kept).toEqual({ local: 0, session: 0, href: demo.url, cookie: '' });
    await morFlow(page, 's3', 'mor_s3', s3, { version: '6', index: 'SIMPLE' });
    expect(await page.content()).not.toContain('S3RVER-secret-value');
    expect(errors).toEqual([]);
    await page.close();
  });
});
