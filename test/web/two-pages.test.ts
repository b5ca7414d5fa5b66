// Two pages of one browser profile write the same OPFS table at once (through the library served by the
// Vite dev server): writers serialise on the table's Web Lock, and every commit of both pages lands.
import { expect, test } from 'vitest';
import { persistentDemo, withLibrary } from './demo-browser.js';

const demo = persistentDemo('lakelet-two-pages-');

test('two tabs upsert one OPFS table concurrently: all commits land, none is lost', { timeout: 120_000 }, async () => {
  const pages = [await demo.context.newPage(), await demo.context.newPage()];
  const errors: Error[] = [];
  for (const p of pages) {
    p.on('pageerror', (e) => errors.push(e));
    await p.goto(demo.url);
  }
  await withLibrary(pages[0]!, `async (l) => {
    await l.createTable(l.opfsStorage('two-pages/t'), { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'],
      schema: { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'p', type: 'string' }, { name: 'ts', type: 'long' }] } });
  }`, null);
  const writer = `async (l, w) => {
    const table = await l.openTable(l.opfsStorage('two-pages/t'));
    const instants = [];
    for (let round = 0; round < 4; round++) {
      const rows = Array.from({ length: 3 }, (_, i) => ({ id: 'w' + w + '-' + round + '-' + i, p: 'p' + ((w + round + i) % 2), ts: round }));
      instants.push((await table.upsert(rows, { bloomFilter: { numEntries: 100 } })).instant);
    }
    return instants;
  }`;
  const [a, b] = await Promise.all([withLibrary<string[]>(pages[0]!, writer, 0), withLibrary<string[]>(pages[1]!, writer, 1)]);
  const result = await withLibrary<{ commits: string[]; pending: number; ids: string[] }>(pages[0]!, `async (l) => {
    const table = await l.openTable(l.opfsStorage('two-pages/t'));
    const ids = [];
    for await (const r of table.rows({ columns: ['id'] })) ids.push(r.id);
    return { commits: table.commits.map((c) => c.requestedTime), pending: table.timeline.filter((i) => i.state !== 'COMPLETED').length, ids: ids.sort() };
  }`, null);
  expect(errors).toEqual([]);
  expect(result.commits).toEqual([...a!, ...b!].sort());
  expect(result.pending).toBe(0);
  const expected = [0, 1].flatMap((w) => [0, 1, 2, 3].flatMap((r) => [0, 1, 2].map((i) => `w${w}-${r}-${i}`))).sort();
  expect(result.ids).toEqual(expected);
});
