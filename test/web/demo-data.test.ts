// The demo's "Data in" and "Data out" end to end in headless Chromium (OPFS, persistent profile): a CSV imported
// into a new table through the schema editor, rows checked by a table's schema, the row editor's upsert and
// delete, CSV and parquet downloads parsed back, a fixture table zip imported into OPFS and written to,
// exported as a zip and imported again with the same rows.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { openTable, tableStorage, zipStorage } from '../../src/index.js';
import { readImportFile } from '../../web/import-file.js';
import { collect } from '../helpers/fixtures.js';
import { openDemoPage, persistentDemo, ready, shownCount } from './demo-browser.js';

const COW_ZIP = `${inject('FIXTURES_DIR')}/sample_table/cow/v6_nonpartitioned.zip`;
const demo = persistentDemo('lakelet-demo-data-', { width: 1280, height: 900 });
const openPage = () => openDemoPage(demo.context, demo.url, 'body[data-state="empty"] #tables[data-listed]', true);

const PEOPLE = 'id,name,score,joined\n1,Ann,3.5,2024-01-02\n2,"Bob, Jr.",,2024-02-03\n3,Cy,7,2024-03-04\n';
const csvFile = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

/** Click `button` and return the bytes of the download it starts. */
async function downloaded(page: Page, button: string): Promise<{ name: string; bytes: Uint8Array }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  await ready(page);
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: new Uint8Array(await readFile(path)) };
}

const byId = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => Number(a.id) - Number(b.id));

describe('demo page: data in and out', () => {
  it('imports a CSV through the schema editor, checks rows by the table schema, edits rows and downloads the query', { timeout: 300_000 }, async () => {
    const { page, errors } = await openPage();
    await page.setInputFiles('[data-testid="import-file"]', csvFile('people.csv', PEOPLE));
    await page.waitForSelector('#import-form:not([hidden]) #import-schema-table');
    const types = await page.$$eval('#import-schema-table tbody tr', (trs) => trs.map((tr) => (tr.querySelector('select') as HTMLSelectElement).value));
    expect(types).toEqual(['long', 'string', 'double', 'date']);
    expect(await page.$eval('[data-testid="import-key"]', (s) => (s as HTMLSelectElement).value)).toBe('id');
    expect(await page.inputValue('[data-testid="import-name"]')).toBe('people');
    expect(await page.textContent('#import-preview-table')).toContain('Bob, Jr.');
    // Edit the schema before the table exists: rename `score` and make it an int column… which 3.5 does not fit.
    await page.fill('[data-testid="import-column-name-2"]', 'points');
    await page.selectOption('[data-testid="import-column-type-2"]', 'int');
    await page.click('[data-testid="import-write"]');
    await page.waitForSelector('body[data-state="error"]');
    expect(await page.textContent('#error')).toContain('people.csv line 2: column "score" expects int, got "3.5"');
    expect(await page.$$eval('#tables-list tr[data-table="people"]', (r) => r.length)).toBe(0); // nothing created
    await page.selectOption('[data-testid="import-column-type-2"]', 'double');
    await page.selectOption('[data-testid="import-type"]', 'MERGE_ON_READ');
    await page.click('[data-testid="import-write"]');
    await ready(page);
    expect(await page.getAttribute('[data-testid="import-summary"]', 'data-rows')).toBe('3');
    expect(await page.textContent('#config')).toContain('MERGE_ON_READ');
    expect(await shownCount(page)).toBe(3);
    expect(await page.isVisible('#tables-list tr[data-table="people"]')).toBe(true);

    // Into the open table: typed by its schema; a value that does not fit is refused with the file's line.
    await page.setInputFiles('[data-testid="import-file"]', csvFile('more.csv', 'id,name,points,joined\n4,Di,1.5,2024-04-05\n5,Ed,x,2024-05-06\n'));
    await page.waitForSelector('#import-form:not([hidden])');
    await page.selectOption('[data-testid="import-target"]', 'open');
    await page.click('[data-testid="import-write"]');
    await page.waitForSelector('body[data-state="error"]');
    expect(await page.textContent('#error')).toContain('more.csv line 3: column "points" expects double, got "x"');
    await page.setInputFiles('[data-testid="import-file"]', csvFile('more.csv', 'id,name,points,joined\n4,Di,1.5,2024-04-05\n'));
    await page.waitForSelector('#import-form:not([hidden])');
    await page.selectOption('[data-testid="import-target"]', 'open');
    await page.click('[data-testid="import-write"]');
    await ready(page);
    expect(await shownCount(page)).toBe(4);

    // The row editor: upsert a new row and an update, delete by key.
    await page.fill('[data-testid="row-field-id"]', '9');
    await page.fill('[data-testid="row-field-name"]', 'Neu');
    await page.fill('[data-testid="row-field-points"]', '2.25');
    await page.fill('[data-testid="row-field-joined"]', '2024-09-09');
    await page.click('[data-testid="row-upsert"]');
    await ready(page);
    expect(await page.getAttribute('[data-testid="row-result"]', 'data-inserted')).toBe('1');
    await page.fill('[data-testid="row-field-id"]', '1');
    await page.fill('[data-testid="row-field-name"]', 'Anna');
    await page.click('[data-testid="row-upsert"]');
    await ready(page);
    expect(await page.getAttribute('[data-testid="row-result"]', 'data-updated')).toBe('1');
    await page.fill('[data-testid="row-field-id"]', '2');
    await page.click('[data-testid="row-delete"]');
    await ready(page);
    expect(await page.getAttribute('[data-testid="row-result"]', 'data-deleted')).toBe('1');
    expect(await shownCount(page)).toBe(4);

    // Downloads of the query (a snapshot of the latest commit, data columns plus the commit time), parsed back.
    const expected = [
      { id: 1n, name: 'Anna', points: 2.25, joined: '2024-09-09' },
      { id: 3n, name: 'Cy', points: 7, joined: '2024-03-04' },
      { id: 4n, name: 'Di', points: 1.5, joined: '2024-04-05' },
      { id: 9n, name: 'Neu', points: 2.25, joined: '2024-09-09' },
    ];
    const csv = await downloaded(page, '[data-testid="export-csv"]');
    expect(csv.name).toBe('people_query.csv');
    const csvRows = (await readImportFile(csv.name, csv.bytes)).rows;
    expect(byId(csvRows).map((r) => ({ id: BigInt(r.id as string), name: r.name, points: Number(r.points), joined: r.joined }))).toEqual(expected);
    const parquet = await downloaded(page, '[data-testid="export-parquet"]');
    const parquetRows = (await readImportFile(parquet.name, parquet.bytes)).rows;
    expect(byId(parquetRows).map((r) => ({ ...r, joined: (r.joined as Date).toISOString().slice(0, 10) }))).toEqual(expected);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('imports a fixture table zip into OPFS, writes to it, exports it as a zip and imports that again', { timeout: 300_000 }, async () => {
    const { page, errors } = await openPage();
    const fixture = await openTable(await tableStorage(zipStorage(new Uint8Array(await readFile(COW_ZIP)))));
    const fixtureRows = (await collect(fixture.rows({ columns: ['id', 'name'] }))).length;
    await page.setInputFiles('[data-testid="import-table-zip"]', COW_ZIP);
    await ready(page);
    expect(await page.getAttribute('[data-testid="import-summary"]', 'data-table')).toBe('v6_nonpartitioned');
    expect(await page.isVisible('#tables-list tr[data-table="v6_nonpartitioned"]')).toBe(true);
    expect(await page.isHidden('#write-readonly')).toBe(true); // writable in OPFS, unlike a zip opened read-only
    expect(await shownCount(page)).toBe(fixtureRows);
    await page.fill('[data-testid="row-field-id"]', '100');
    await page.fill('[data-testid="row-field-name"]', 'Zed');
    await page.fill('[data-testid="row-field-longField"]', '1');
    await page.click('[data-testid="row-upsert"]');
    await ready(page);
    expect(await shownCount(page)).toBe(fixtureRows + 1);

    const zip = await downloaded(page, '[data-testid="export-zip"]');
    expect(zip.name).toBe('v6_nonpartitioned.zip');
    const exported = await openTable(await tableStorage(zipStorage(zip.bytes)));
    const names = async (t: typeof exported) => (await collect(t.rows({ columns: ['id', 'name'] }))).sort((a, b) => Number(a.id) - Number(b.id));
    expect((await names(exported)).at(-1)).toEqual({ id: 100, name: 'Zed' });

    await page.setInputFiles('[data-testid="import-table-zip"]', { name: zip.name, mimeType: 'application/zip', buffer: Buffer.from(zip.bytes) });
    await ready(page);
    expect(await page.getAttribute('[data-testid="import-summary"]', 'data-table')).toBe('v6_nonpartitioned_2');
    expect(await shownCount(page)).toBe(fixtureRows + 1);
    const reimported = await downloaded(page, '[data-testid="export-csv"]');
    const back = (await readImportFile(reimported.name, reimported.bytes)).rows.map((r) => ({ id: Number(r.id), name: r.name }));
    expect(back.sort((a, b) => a.id - b.id)).toEqual(await names(exported));
    expect(errors).toEqual([]);
    await page.close();
  });
});
