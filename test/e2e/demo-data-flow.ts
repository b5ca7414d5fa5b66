// The data-in/out steps of the end-to-end flow over the built demo: a fixture table zip and a CSV file
// imported into the connected store with their rows shown, then a table exported as a .zip and imported again.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { openTable, tableStorage, zipStorage } from '../../src/index.js';
import { collect } from '../helpers/fixtures.js';
import { ready } from '../web/demo-browser.js';
import { shownResult } from './demo-query.js';

const PEOPLE = 'id,name,score,joined\n1,Ann,3.5,2024-01-02\n2,"Bob, Jr.",,2024-02-03\n3,Cy,7,2024-03-04\n';

/** Click `button` and return the name and bytes of the download it starts. */
async function downloaded(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  await ready(page);
  return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
}

/** Import the table zip at `zip` (bytes) under `name`; the table it became, opened, and its row count shown. */
async function importZip(page: Page, name: string, bytes: Buffer): Promise<{ table: string; count: number }> {
  await page.setInputFiles('[data-testid="import-table-zip"]', { name, mimeType: 'application/zip', buffer: bytes });
  await ready(page);
  return { table: (await page.getAttribute('[data-testid="import-summary"]', 'data-table')) ?? '', count: (await shownResult(page)).count };
}

/** Import the fixture table zip at `fixtureZip` and a CSV file, export the CSV's table as a zip and import it again. */
export async function dataInOut(page: Page, fixtureZip: string): Promise<void> {
  const zipBytes = await readFile(fixtureZip);
  const fixture = await openTable(await tableStorage(zipStorage(new Uint8Array(zipBytes))));
  const fixtureRows = (await collect(fixture.rows({ columns: ['_hoodie_record_key'] }))).length;
  const fromZip = await importZip(page, 'v6_nonpartitioned.zip', zipBytes);
  expect(fromZip).toEqual({ table: 'v6_nonpartitioned', count: fixtureRows });

  await page.setInputFiles('[data-testid="import-file"]', { name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(PEOPLE) });
  await page.waitForSelector('#import-form:not([hidden]) #import-schema-table');
  await page.click('[data-testid="import-write"]');
  await ready(page);
  expect(await page.getAttribute('[data-testid="import-summary"]', 'data-rows')).toBe('3');
  const people = await shownResult(page);
  expect(people.count).toBe(3);
  expect(people.rows.map((r) => r.name).sort()).toEqual(['Ann', 'Bob, Jr.', 'Cy']);

  const zip = await downloaded(page, '[data-testid="export-zip"]');
  const again = await importZip(page, zip.name, zip.bytes);
  expect(again).toEqual({ table: 'people_2', count: 3 });
}
