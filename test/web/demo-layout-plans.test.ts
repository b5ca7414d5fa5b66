// The demo's file layout marks what the next services would touch: in a page of the demo's dev server, the layout
// view (web/layout-view.ts, given the table) highlights exactly the file groups `table.compactionPlan()` names and
// exactly the files `table.cleanPlan()` names, with a legend and a caption counting both; after compact() and
// clean() a redraw moves the highlights (compacted slices are no longer marked, cleaned files are gone); and on
// the page itself (a table in OPFS, written by the generator), the marks follow the Compact and Clean buttons.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createInUi, generateInUi, openDemoPage, persistentDemo, ready, repo, withLibrary } from './demo-browser.js';

const demo = persistentDemo('lakelet-demo-layout-plans-', { width: 1280, height: 900 });

/** Run `body` in the page with `l` (the library), `v` (web/layout-view.ts) and `s` (the test's state on window). */
function inPage<T>(page: Page, body: string): Promise<T> {
  const script = `(async () => {
    const l = await import(${JSON.stringify(`/@fs${repo}/src/index.ts`)});
    const v = await import(${JSON.stringify(`/@fs${repo}/web/layout-view.ts`)});
    const s = (window.__plansTest ??= {});
    ${body}
  })()`;
  return page.evaluate(script) as Promise<T>;
}

interface Shown {
  plans: string | undefined;
  groups: string[];
  cleanFiles: string[];
  drawnCleanFiles: number;
  legend: string[];
  caption: string;
  counts: [string | undefined, string | undefined];
}

interface Planned {
  groups: string[];
  cleanFiles: string[];
}

/** Draw the layout of `slicesExpr` with the table (as the demo's query refresh does) and read what it marks, once the plans are in. */
async function draw(page: Page, slicesExpr = 'await s.table.fileSlices()'): Promise<Shown> {
  return inPage<Shown>(page, `
    s.picture ??= document.body.appendChild(document.createElement('div'));
    s.picture.className = 'layout';
    s.list ??= document.body.appendChild(document.createElement('div'));
    s.caption ??= document.body.appendChild(document.createElement('p'));
    v.renderLayout(s.picture, s.list, s.caption, ${slicesExpr}, 'snapshot as of latest', s.table);
    const deadline = Date.now() + 20000;
    while (s.picture.dataset.plans === 'loading' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const all = (sel) => [...s.picture.querySelectorAll(sel)];
    return {
      plans: s.picture.dataset.plans,
      groups: all('.slice[data-next-compaction="true"]').map((e) => e.dataset.partition + '/' + e.dataset.fileId).sort(),
      cleanFiles: all('.file[data-next-clean="true"]').map((e) => e.dataset.path).sort(),
      drawnCleanFiles: all('.file.next-clean:not(.older)').length,
      legend: all('.legend .key').map((e) => e.textContent),
      caption: s.caption.textContent,
      counts: [s.picture.dataset.nextCompactionCount, s.picture.dataset.nextCleanCount],
    };
  `);
}

/** What the library's dry runs say, read by the test itself. */
function planned(page: Page): Promise<Planned> {
  return inPage<Planned>(page, `
    const c = await s.table.compactionPlan();
    const k = await s.table.cleanPlan();
    return { groups: c.slices.map((x) => x.partitionPath + '/' + x.fileId).sort(), cleanFiles: Object.values(k.filesToDelete).flat().sort() };
  `);
}

describe('demo layout: the next compaction and clean highlighted', () => {
  it('marks exactly the planned slices and files, and moves the marks after compact() and clean()', async () => {
    const { page, errors } = await openDemoPage(demo.context, demo.url, 'body[data-state]');
    await inPage(page, `
      s.storage = l.memoryStorage();
      s.table = await l.createTable(s.storage, { name: 'plans', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'],
        bloomFilter: { numEntries: 100 }, compaction: { inline: false }, clean: { automatic: false, retainCommits: 1 }, archive: { automatic: false } });
      await s.table.upsert([{ id: 'a', ts: 1, p: 'x', v: 1 }, { id: 'b', ts: 1, p: 'x', v: 1 }, { id: 'c', ts: 1, p: 'y', v: 1 }, { id: 'd', ts: 1, p: 'z', v: 1 }]);
      await s.table.upsert([{ id: 'a', ts: 2, p: 'x', v: 2 }, { id: 'c', ts: 2, p: 'y', v: 2 }]);
      await s.table.upsert([{ id: 'b', ts: 3, p: 'x', v: 3 }]);
    `);

    // Logs in x and y: both groups are highlighted, z (base file only) is not; nothing to clean yet.
    let plan = await planned(page);
    let shown = await draw(page);
    expect(shown.plans).toBe('ready');
    expect(plan.groups).toHaveLength(2);
    expect(shown.groups).toEqual(plan.groups);
    expect(shown.cleanFiles).toEqual(plan.cleanFiles);
    expect(shown.cleanFiles).toEqual([]);
    expect(shown.legend).toEqual(['base file', 'log file', 'next compaction', 'next clean']);
    expect(shown.caption).toContain('next compaction: 2 slices; next clean: 0 files.');
    expect(shown.counts).toEqual(['2', '0']);

    // Compacted: no slice is marked any more.
    await inPage(page, 'await s.table.compact();');
    shown = await draw(page);
    expect(shown.groups).toEqual([]);
    expect(shown.caption).toContain('next compaction: 0 slices;');

    // Another write and compaction leave the first slices beyond the one retained commit: the clean's files,
    // not in the latest snapshot, are drawn as older slices and marked.
    await inPage(page, `await s.table.upsert([{ id: 'a', ts: 4, p: 'x', v: 4 }, { id: 'c', ts: 4, p: 'y', v: 4 }]);`);
    plan = await planned(page);
    shown = await draw(page);
    expect(shown.groups).toEqual(plan.groups);
    await inPage(page, 'await s.table.compact();');
    plan = await planned(page);
    shown = await draw(page);
    expect(plan.cleanFiles.length).toBeGreaterThan(0);
    expect(shown.cleanFiles).toEqual(plan.cleanFiles);
    expect(shown.drawnCleanFiles).toBe(0);
    expect(shown.caption).toContain(`next clean: ${plan.cleanFiles.length} files.`);
    expect(shown.counts).toEqual(['0', String(plan.cleanFiles.length)]);

    // Time travel to the first commit draws those old slices: their own boxes are marked.
    const asOfFirst = await draw(page, 'await s.table.fileSlices({ asOf: s.table.commits[0].requestedTime })');
    expect(asOfFirst.cleanFiles).toEqual(plan.cleanFiles.filter((f) => f.startsWith('p=x/') || f.startsWith('p=y/')));
    expect(asOfFirst.drawnCleanFiles).toBeGreaterThan(0);

    // Cleaned: the files are gone from the store and nothing is marked.
    const deleted = await inPage<string[]>(page, `
      const before = (await s.storage.list('', { recursive: true })).map((f) => f.path);
      await s.table.clean();
      const after = new Set((await s.storage.list('', { recursive: true })).map((f) => f.path));
      return before.filter((p) => !after.has(p) && !p.startsWith('.hoodie/')).sort();
    `);
    expect(deleted).toEqual(plan.cleanFiles);
    shown = await draw(page);
    expect(shown.cleanFiles).toEqual([]);
    expect(shown.caption).toContain('next clean: 0 files.');
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});

/** What the page's layout marks once its plans are in. */
async function pageMarks(page: Page): Promise<Planned & { caption: string }> {
  await page.waitForSelector('#layout[data-plans="ready"]');
  return page.evaluate(() => {
    const all = (sel: string) => [...document.querySelectorAll<HTMLElement>(sel)];
    return {
      groups: all('#layout .slice[data-next-compaction="true"]').map((e) => `${e.dataset.partition}/${e.dataset.fileId}`).sort(),
      cleanFiles: all('#layout .file[data-next-clean="true"]').map((e) => e.dataset.path ?? '').sort(),
      caption: document.querySelector('#slices-caption')?.textContent ?? '',
    };
  });
}

/** The dry runs of the OPFS table `name`, read by the library on the page's store. */
function storePlans(page: Page, name: string): Promise<Planned & { files: string[] }> {
  return withLibrary(page, `async (l, a) => {
    const table = await l.openTable(l.prefixedStorage(await l.opfsStorage('lakelet-demo'), a.name));
    const c = await table.compactionPlan();
    const k = await table.cleanPlan();
    const files = (await table.storage.list('', { recursive: true })).map((f) => f.path).filter((p) => !p.startsWith('.hoodie/'));
    return { groups: c.slices.map((x) => x.partitionPath + '/' + x.fileId).sort(), cleanFiles: Object.values(k.filesToDelete).flat().sort(), files };
  }`, { name });
}

describe('demo page: the layout marks follow the services', () => {
  it('Compact and Clean: the marked slices and files are the dry runs\' and the ones the services then touch', async () => {
    const { page, errors } = await openDemoPage(demo.context, demo.url, 'body[data-state="empty"] #tables[data-listed]', true);
    const name = 'plans_ui';
    await createInUi(page, { name, type: 'MERGE_ON_READ', partitions: 'city', version: '6' });
    await generateInUi(page, 200, { updates: 0, seed: 3 });
    await generateInUi(page, 200, { updates: 50, seed: 4 });
    let marks = await pageMarks(page);
    let plans = await storePlans(page, name);
    expect(plans.groups.length).toBeGreaterThan(0);
    expect(marks.groups).toEqual(plans.groups);
    expect(marks.cleanFiles).toEqual(plans.cleanFiles);
    expect(marks.caption).toContain(`next compaction: ${plans.groups.length} slice`);

    await page.click('#compact');
    await ready(page);
    marks = await pageMarks(page);
    expect(marks.groups).toEqual([]);
    expect((await storePlans(page, name)).groups).toEqual([]);

    // Updates and compactions until the next clean has files (the page's writes clean after themselves,
    // keeping 10 commits; a compaction from the button does not).
    for (let round = 0; round < 12 && marks.cleanFiles.length === 0; round++) {
      await generateInUi(page, 50, { updates: 100, seed: 10 + round });
      await page.click('#compact');
      await ready(page);
      marks = await pageMarks(page);
    }
    plans = await storePlans(page, name);
    expect(plans.cleanFiles.length).toBeGreaterThan(0);
    expect(marks.cleanFiles).toEqual(plans.cleanFiles);
    expect(marks.caption).toContain(`next clean: ${plans.cleanFiles.length} file`);

    await page.click('#clean');
    await ready(page);
    marks = await pageMarks(page);
    const after = await storePlans(page, name);
    expect(plans.files.filter((f) => !after.files.includes(f)).sort()).toEqual(plans.cleanFiles);
    expect(marks.cleanFiles).toEqual(after.cleanFiles);
    expect(marks.cleanFiles).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);
});
