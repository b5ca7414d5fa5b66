// Driving the built demo's query panel from the end-to-end tests: set the controls, run, and read back the
// row count and the rows the virtualized grid shows; the change stream's before/after images parsed.
import type { Page } from 'playwright-core';
import { ready } from '../web/demo-browser.js';

/** What a query sets (unset: the panel's defaults — latest, all data columns, no filter). */
export interface QueryInUi {
  mode?: 'snapshot' | 'incremental' | 'changes';
  asOf?: string;
  readOptimized?: boolean;
  from?: string;
  to?: string;
  columns?: string;
  where?: string;
}

/** What the grid shows: the query's row count and the rows drawn (the window in view), by column header. */
export interface QueryResult {
  count: number;
  caption: string;
  header: string[];
  rows: Record<string, string>[];
}

/** The result the panel shows now. */
export async function shownResult(page: Page): Promise<QueryResult> {
  const count = Number(await page.getAttribute('#rows-caption', 'data-count'));
  const caption = (await page.textContent('#rows-caption')) ?? '';
  const { header, rows } = await page.$eval('#rows-table', (t) => {
    const table = t as HTMLTableElement;
    const head = Array.from(table.tHead?.rows[0]?.cells ?? [], (c) => c.textContent ?? '');
    const body = Array.from(table.tBodies[0]?.rows ?? [], (r) => Object.fromEntries(Array.from(r.cells, (c, i) => [head[i] ?? '', c.textContent ?? ''])));
    return { header: head, rows: body };
  });
  return { count, caption, header, rows };
}

/** Set the query controls to `q` and run it; the result once the page settles. */
export async function queryInUi(page: Page, q: QueryInUi): Promise<QueryResult> {
  const mode = q.mode ?? 'snapshot';
  if ((await page.inputValue('#mode')) !== mode) {
    await page.selectOption('#mode', mode); // runs a query with the old settings; the one below supersedes it
    await ready(page);
  }
  await page.evaluate((q) => {
    const el = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
    el<HTMLSelectElement>('as-of').value = q.asOf ?? '';
    el<HTMLInputElement>('read-optimized').checked = q.readOptimized ?? false;
    el<HTMLSelectElement>('from').value = q.from ?? '00000000000000000';
    el<HTMLSelectElement>('to').value = q.to ?? '';
    el<HTMLInputElement>('columns').value = q.columns ?? '';
    el<HTMLInputElement>('where').value = q.where ?? '';
  }, q);
  await page.click('#run');
  await ready(page);
  return shownResult(page);
}

/** Drag the time-travel slider to commit `index` (as a person does: input events, then change on release). */
export async function slideTo(page: Page, index: number): Promise<{ thumb: string; result: QueryResult }> {
  if ((await page.inputValue('#mode')) !== 'snapshot') {
    await page.selectOption('#mode', 'snapshot');
    await ready(page);
  }
  await page.$eval('#as-of-slider', (s, index) => {
    (document.getElementById('read-optimized') as HTMLInputElement).checked = false;
    (document.getElementById('columns') as HTMLInputElement).value = '';
    (document.getElementById('where') as HTMLInputElement).value = '';
    const slider = s as HTMLInputElement;
    slider.value = String(index);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    slider.dispatchEvent(new Event('change', { bubbles: true }));
  }, index);
  await ready(page);
  return { thumb: (await page.getAttribute('#as-of-thumb', 'data-instant')) ?? '', result: await shownResult(page) };
}

/** One change of the change stream as the grid shows it. */
export interface ShownChange {
  op: string;
  commitTime: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** The changes the grid shows (the window in view). */
export function shownChanges(result: QueryResult): ShownChange[] {
  const image = (text: string | undefined) => (text === undefined || text === 'null' ? null : JSON.parse(text) as Record<string, unknown>);
  return result.rows.map((r) => ({ op: r.op ?? '', commitTime: r.commit_time ?? '', before: image(r.before), after: image(r.after) }));
}

/** Scroll the grid to its end; the first and last row indexes drawn and how many rows are in the DOM. */
export async function scrollGridToEnd(page: Page): Promise<{ first: number; last: number; drawn: number }> {
  await page.$eval('#rows-grid', (g) => g.scrollTo({ top: g.scrollHeight }));
  const total = Number(await page.getAttribute('#rows-grid', 'data-total'));
  await page.waitForSelector(`#rows-grid tbody tr[data-row="${total - 1}"]`);
  return page.$eval('#rows-grid', (g) => {
    const rows = Array.from(g.querySelectorAll('tbody tr'), (tr) => Number((tr as HTMLElement).dataset.row));
    return { first: rows[0] ?? -1, last: rows.at(-1) ?? -1, drawn: rows.length };
  });
}
