// fileListStorage in Chromium: the shared read-only contract, then real `File` objects (with `webkitRelativePath`
// as a folder picker sets it, or `{ file, path }` entries): listing, ranges, NOT_FOUND, writes, a fixture table.
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { isLakeletError, openTable, tableStorage } from '../../src/index.js';
import { fileListStorage } from '../../src/storage/file-list.js';
import { fetchFixture } from '../helpers/fixtures.browser.js';
import { defineReadOnlyContract } from './contract.js';

const text = (s: string) => new TextEncoder().encode(s);
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

/** A File as `<input webkitdirectory>` hands it over: `webkitRelativePath` is a read-only getter. */
function picked(path: string, content: string | Uint8Array, lastModified = 1_700_000_000_000): File {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const file = new File([typeof content === 'string' ? text(content) : new Uint8Array(content)], name, { lastModified });
  Object.defineProperty(file, 'webkitRelativePath', { value: path });
  return file;
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

const contractFiles = { 'table/.hoodie/hoodie.properties': 'hoodie.table.name=t', 'table/p=1/a.parquet': 'PAR1 data PAR1', 'table/top.txt': 'top' };
defineReadOnlyContract('fileListStorage (picked Files)', contractFiles, async () => ({
  storage: fileListStorage(Object.entries(contractFiles).map(([path, t]) => picked(path, t))),
}));
defineReadOnlyContract('fileListStorage ({ file, path } entries)', contractFiles, async () => ({
  storage: fileListStorage(Object.entries(contractFiles).map(([path, t]) => ({ file: new Blob([text(t)]), path }))),
}));

const tree = () => fileListStorage([
  picked('t/b.txt', 'bee'),
  picked('t/a/2.txt', 'two'),
  picked('t/a.txt', 'ay'),
  picked('t/a/1.txt', 'one'),
  picked('t/a/deep/x.bin', new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
  picked('__MACOSX/t/._b.txt', 'junk'),
], { label: 'picked' });

describe('fileListStorage', () => {
  it('lists direct children and recursive files sorted by path', async () => {
    const s = tree();
    expect(s.readOnly).toBe(true);
    expect(s.label).toBe('picked');
    expect((await s.list('')).map((e) => [e.path, e.kind])).toEqual([['t', 'directory']]);
    expect((await s.list('t')).map((e) => [e.path, e.kind])).toEqual([
      ['t/a', 'directory'], ['t/a.txt', 'file'], ['t/b.txt', 'file'],
    ]);
    expect((await s.list('t/a')).map((e) => e.path)).toEqual(['t/a/1.txt', 't/a/2.txt', 't/a/deep']);
    expect((await s.list('t/', { recursive: true })).map((e) => e.path)).toEqual([
      't/a.txt', 't/a/1.txt', 't/a/2.txt', 't/a/deep/x.bin', 't/b.txt',
    ]);
    expect(await s.list('t/missing')).toEqual([]);
    expect(await s.list('t/a.txt')).toEqual([]);
  });

  it('reports size and modification time', async () => {
    const s = tree();
    expect(await s.head('t/a/deep/x.bin')).toEqual({ path: 't/a/deep/x.bin', size: 10, kind: 'file', lastModified: 1_700_000_000_000 });
    expect(await s.head('/t/b.txt')).toMatchObject({ path: 't/b.txt', size: 3 });
    const [file] = await s.list('t/a/deep', { recursive: true });
    expect(file).toMatchObject({ size: 10, kind: 'file' });
  });

  it('reads whole files and end-exclusive ranges, clamped to the size', async () => {
    const s = tree();
    expect(decode(await s.read('t/a/1.txt'))).toBe('one');
    expect([...await s.read('t/a/deep/x.bin', { start: 2, end: 5 })]).toEqual([2, 3, 4]);
    expect([...await s.read('t/a/deep/x.bin', { start: 8, end: 100 })]).toEqual([8, 9]);
    expect([...await s.read('t/a/deep/x.bin', { start: 20, end: 30 })]).toEqual([]);
    expect([...await s.read('t/a/deep/x.bin', { start: 4, end: 4 })]).toEqual([]);
    const bad = await rejection(s.read('t/a/deep/x.bin', { start: 5, end: 2 }));
    expect(isLakeletError(bad, 'INVALID_ARGUMENT')).toBe(true);
  });

  it('raises NOT_FOUND for missing files and directories, and skips __MACOSX junk', async () => {
    const s = tree();
    for (const p of [s.read('t/nope.txt'), s.head('t/nope.txt'), s.read('t/a'), s.head('__MACOSX/t/._b.txt')]) {
      const err = await rejection(p);
      expect(isLakeletError(err, 'NOT_FOUND')).toBe(true);
    }
    const err = await rejection(s.read('t/nope.txt'));
    expect(isLakeletError(err) && err.context.path).toBe('t/nope.txt');
    expect((err as Error).message).toContain('picked');
  });

  it('rejects every write with UNSUPPORTED', async () => {
    const s = tree();
    for (const p of [s.write('t/new.txt', text('x')), s.writeIfAbsent('t/a.txt', text('x')), s.delete('t/a.txt')]) {
      const err = await rejection(p);
      expect(isLakeletError(err, 'UNSUPPORTED')).toBe(true);
    }
    expect(decode(await s.read('t/a.txt'))).toBe('ay');
  });

  it('accepts { file, path } entries and plain Files (stored under their name)', async () => {
    const s = fileListStorage([
      { file: new Blob([text('hello')]), path: 'dir/blob.txt', lastModified: 5 },
      { file: new File([text('x')], 'ignored-name.txt', { lastModified: 7 }), path: '/dir/sub/file.txt' },
      new File([text('loose')], 'loose.txt'),
      { file: new Blob([text('bad')]), path: 'dir/../escape.txt' },
      { file: new Blob([text('first')]), path: 'dir/dup.txt' },
      { file: new Blob([text('second')]), path: 'dir/dup.txt' },
    ]);
    expect(s.label).toBe('files');
    expect((await s.list('', { recursive: true })).map((e) => e.path)).toEqual(['dir/blob.txt', 'dir/dup.txt', 'dir/sub/file.txt', 'loose.txt']);
    expect(await s.head('dir/blob.txt')).toEqual({ path: 'dir/blob.txt', size: 5, kind: 'file', lastModified: 5 });
    expect((await s.head('dir/sub/file.txt')).lastModified).toBe(7);
    expect(decode(await s.read('dir/dup.txt'))).toBe('second');
    expect(decode(await s.read('dir/blob.txt', { start: 1, end: 4 }))).toBe('ell');
  });

  it('opens a fixture table picked as a folder', async () => {
    const entries = unzipSync(await fetchFixture('sample_table/mor/parquet/v6_nonpartitioned.zip'));
    const files = Object.entries(entries).filter(([name]) => !name.endsWith('/')).map(([name, bytes]) => picked(name, bytes));
    const table = await openTable(await tableStorage(fileListStorage(files, { label: 'picked' })));
    expect(table.config.tableType).toBe('MERGE_ON_READ');
    const rows: Record<string, unknown>[] = [];
    for await (const row of table.rows({ columns: ['id', 'name', 'isActive'] })) rows.push(row);
    expect(rows.map((r) => [r.id, r.isActive]).sort()).toEqual([[1, false], [2, false], [3, true], [4, true]]);
  });
});
