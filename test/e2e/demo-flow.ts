// The end-to-end flow over the built demo, the same on every store: create a merge-on-read table, write 10k
// generated rows (main-thread long tasks measured), update 1k, delete 100, run every query type and check its
// counts and values against each other, look at the charts, compact, and screenshot every main view.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { clickAndLog, createInUi, generateInUi, ready, shownCount } from '../web/demo-browser.js';
import { longTasks, screenshot } from './built-demo.js';
import { queryInUi, scrollGridToEnd, shownChanges, shownResult, slideTo } from './demo-query.js';

/** The completed writes of the timeline table: [instant, action]. */
export function completedWrites(page: Page): Promise<[string, string][]> {
  return page.$$eval('#timeline tbody tr', (trs) => trs.map((tr) => Array.from((tr as HTMLTableRowElement).cells, (c) => c.textContent ?? ''))
    .filter((c) => c[2] === 'completed' && ['commit', 'deltacommit', 'replacecommit'].includes(c[1] ?? ''))
    .map((c) => [c[0] ?? '', c[1] ?? ''] as [string, string]));
}

/** The generator's summary (data attributes: inserted, updated, deleted, files, bytes, ms). */
export async function summary(page: Page): Promise<Record<string, number>> {
  const data = await page.$eval('#generate-summary', (el) => ({ ...(el as HTMLElement).dataset }));
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Number(v)]));
}

/** Generate `rows` inserts with the page's long tasks observed; they go to `longTasks[store]`. */
async function measuredWrite(page: Page, store: string, rows: number): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: { startMs: number; durationMs: number }[]; __observer?: PerformanceObserver };
    w.__longTasks = [];
    w.__observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ startMs: Math.round(e.startTime), durationMs: Math.round(e.duration) });
    });
    w.__observer.observe({ type: 'longtask' });
  });
  await generateInUi(page, rows, { updates: 0, seed: 11 });
  const tasks = await page.evaluate(() => {
    const w = window as unknown as { __longTasks: { startMs: number; durationMs: number }[]; __observer?: PerformanceObserver };
    for (const e of w.__observer?.takeRecords() ?? []) w.__longTasks.push({ startMs: Math.round(e.startTime), durationMs: Math.round(e.duration) });
    w.__observer?.disconnect();
    return w.__longTasks;
  });
  const durations = tasks.map((t) => t.durationMs);
  longTasks[store] = { count: tasks.length, longestMs: Math.max(0, ...durations), totalMs: durations.reduce((a, b) => a + b, 0), tasks };
}

/**
 * The layout's marks of the next compaction and clean, once the dry runs arrived: the counts the picture states,
 * checked against the elements it marked.
 */
async function nextServiceMarks(page: Page): Promise<{ compaction: number; clean: number }> {
  await page.waitForSelector('#layout[data-plans="ready"]');
  const compaction = Number(await page.getAttribute('#layout', 'data-next-compaction-count'));
  const clean = Number(await page.getAttribute('#layout', 'data-next-clean-count'));
  expect(await page.locator('#layout .slice[data-next-compaction="true"]').count()).toBe(compaction);
  expect(await page.locator('#layout [data-next-clean="true"]').count()).toBe(clean);
  expect(await page.textContent('#slices-caption')).toContain(`next compaction: ${compaction}`);
  return { compaction, clean };
}

/** Screenshot every main view of the page into reports/screenshots/`store`-*.png. */
export async function screenshotViews(page: Page, store: string): Promise<void> {
  const views: [string, string][] = [
    ['store', '#tables'], ['timeline', 'section:has(> #timeline-title)'], ['write', '#write'], ['services', '#services'],
    ['layout', 'section:has(> #slices-title)'], ['charts', '#charts'], ['query', 'section:has(> #query-title)'],
  ];
  for (const [name, selector] of views) await screenshot(page, `${store}-${name}`, selector);
  await screenshot(page, `${store}-page`, 'page');
}

/** The numbers the flow ends with, for the reload and offline checks after it. */
export interface FlowOutcome {
  count: number;
  writes: [string, string][];
}

/** The whole flow on the store the page is connected to; the table is `name`. */
export async function demoFlow(page: Page, store: string, name: string): Promise<FlowOutcome> {
  await createInUi(page, { name, type: 'MERGE_ON_READ', partitions: 'city' });
  expect(await page.textContent('#config')).toContain('MERGE_ON_READ');

  // Cancel: a write cancelled as it starts rejects with ABORTED and leaves the table as it was.
  await page.fill('#upsert-count', '500');
  await page.evaluate(() => {
    document.getElementById('upsert')?.click();
    document.getElementById('write-cancel')?.click(); // the same task: before the write's first progress report
  });
  await page.waitForSelector('body[data-state="error"]');
  expect(await page.textContent('#error-code')).toBe('ABORTED');
  await page.waitForSelector('#write-cancel:disabled', { state: 'attached' });
  expect(await completedWrites(page)).toEqual([]);

  // 10k generated rows, then 1k updates of them, then 100 random deletes.
  await measuredWrite(page, store, 10_000);
  const first = await summary(page);
  expect(first).toMatchObject({ inserted: 10_000, updated: 0, deleted: 0 });
  expect(first.files).toBeGreaterThan(0);
  expect(first.bytes).toBeGreaterThan(0);
  expect(first.ms).toBeGreaterThan(0);
  expect(await page.textContent('#generate-summary')).toMatch(/10,000 inserts, 0 updates, 0 deletes · \d+ files?, [\d.]+ \w+ written in /);
  expect(await shownCount(page)).toBe(10_000);
  await generateInUi(page, 1000, { updates: 100, seed: 12 });
  expect(await summary(page)).toMatchObject({ inserted: 0, updated: 1000, deleted: 0 });
  await page.fill('#delete-count', '100');
  expect(await clickAndLog(page, '#delete')).toMatchObject({ operation: 'delete', deleted: '100' });
  expect(await shownCount(page)).toBe(9900);
  const writes = await completedWrites(page);
  expect(writes.map(([, a]) => a)).toEqual(['deltacommit', 'deltacommit', 'deltacommit']);
  const [c1, c2] = writes.map(([i]) => i) as [string, string, string];

  // Snapshot (the query every write ends with), then column choice, and the virtualized grid scrolled to its end.
  expect((await shownResult(page)).count).toBe(9900);
  const projected = await queryInUi(page, { columns: 'uuid, fare, _hoodie_commit_time' });
  expect(projected.header).toEqual(['uuid', 'fare', '_hoodie_commit_time']);
  expect(projected.count).toBe(9900);
  expect(await scrollGridToEnd(page)).toEqual({ first: 9900 - 16, last: 9899, drawn: 16 });

  // Read-optimized: base files only, so the updates and deletes (in log files) are not seen yet.
  const ro = await queryInUi(page, { readOptimized: true, columns: '_hoodie_commit_time' });
  expect(ro.count).toBe(10_000);
  expect(new Set(ro.rows.map((r) => r._hoodie_commit_time))).toEqual(new Set([c1]));

  // Time travel with the slider: back to the first write (its instant shown under the thumb), then the second.
  const back = await slideTo(page, 0);
  expect(back.thumb).toBe(c1);
  expect(back.result.count).toBe(10_000);
  expect(await page.inputValue('#as-of')).toBe(c1);
  expect((await slideTo(page, 1)).result.count).toBe(10_000);
  expect((await slideTo(page, 2)).result.count).toBe(9900);

  // Incremental: everything of the first write, exactly the 1k updates of the second, the second and third together.
  expect((await queryInUi(page, { mode: 'incremental', to: c1 })).count).toBe(10_000);
  const updates = await queryInUi(page, { mode: 'incremental', from: c1, to: c2, columns: 'uuid, _hoodie_commit_time' });
  expect(updates.count).toBe(1000);
  expect(new Set(updates.rows.map((r) => r._hoodie_commit_time))).toEqual(new Set([c2]));
  const since = (await queryInUi(page, { mode: 'incremental', from: c1 })).count;
  expect(since).toBeGreaterThanOrEqual(900);
  expect(since).toBeLessThanOrEqual(1000);

  // The change stream: 10k inserts, 1k updates (before and after), 100 deletes (before only).
  const inserts = await queryInUi(page, { mode: 'changes', to: c1 });
  expect(inserts.count).toBe(10_000);
  expect(new Set(shownChanges(inserts).map((c) => c.op))).toEqual(new Set(['i']));
  const changed = shownChanges(await queryInUi(page, { mode: 'changes', from: c1, to: c2 }));
  expect(Number(await page.getAttribute('#rows-caption', 'data-count'))).toBe(1000);
  expect(changed.every((c) => c.op === 'u' && c.before !== null && c.after !== null && c.before.uuid === c.after.uuid)).toBe(true);
  const deletes = await queryInUi(page, { mode: 'changes', from: c2 });
  expect(deletes.count).toBe(100);
  const deleted = shownChanges(deletes);
  expect(deleted.every((c) => c.op === 'd' && c.before !== null && c.after === null)).toBe(true);

  // Values: an updated key reads its old fare before the update and its new one after; a deleted key is gone.
  const u = changed[0]!;
  const fareAt = async (asOf: string) => (await queryInUi(page, { asOf, columns: 'uuid, fare', where: `uuid = '${String(u.after?.uuid)}'` })).rows.map((r) => Number(r.fare));
  expect(await fareAt(c1)).toEqual([Number(u.before?.fare)]);
  expect(await fareAt(c2)).toEqual([Number(u.after?.fare)]);
  const gone = String(deleted[0]!.before?.uuid);
  expect((await queryInUi(page, { asOf: c2, where: `uuid = '${gone}'` })).count).toBe(1);
  expect((await queryInUi(page, { where: `uuid = '${gone}'` })).count).toBe(0);
  // A range filter: every row shown passes it, and it keeps some rows but not all.
  const dear = await queryInUi(page, { columns: 'uuid, fare', where: 'fare > 50' });
  expect(dear.count).toBeGreaterThan(0);
  expect(dear.count).toBeLessThan(9900);
  expect(dear.rows.every((r) => Number(r.fare) > 50)).toBe(true);

  // Charts: one bar per write with its records; the file sizes of the latest snapshot.
  await page.waitForSelector('#commit-chart[data-records="10000,1000,100"]');
  expect(await page.locator('#commit-chart canvas').count()).toBe(1);
  expect(Number(await page.getAttribute('#size-chart', 'data-files'))).toBeGreaterThan(0);

  // The layout marks what the next services would touch (the table's dry runs): every file group with log files
  // is in the next compaction, and the clean's count is the files marked.
  await queryInUi(page, {});
  const plans = await nextServiceMarks(page);
  expect(plans.compaction).toBeGreaterThan(0);
  expect(plans.compaction).toBe(await page.locator('#layout .slice:has(.file.log)').count());
  await screenshot(page, `${store}-layout-next-services`, 'section:has(> #slices-title)');

  // Compaction: log files into base files; the read-optimized query now sees the updates and deletes.
  await page.click('#compact');
  await ready(page);
  expect(await page.getAttribute('#service-result', 'data-service')).toBe('compact');
  expect(await page.locator('#layout .file.log').count()).toBe(0);
  expect((await nextServiceMarks(page)).compaction).toBe(0); // nothing left to compact
  expect((await queryInUi(page, { readOptimized: true })).count).toBe(9900);
  expect((await queryInUi(page, {})).count).toBe(9900);
  await page.waitForSelector('#commit-chart[data-commits="4"]');
  await screenshotViews(page, store);
  return { count: 9900, writes: await completedWrites(page) };
}

/** Open `name` from the connected store's list and return the row count of its latest snapshot. */
export async function reopen(page: Page, name: string): Promise<number> {
  await page.click(`#tables-list tr[data-table="${name}"] button[data-action="open"]`);
  await ready(page);
  return (await shownResult(page)).count;
}
