// listFlat: the `list` of the flat-keyed stores (memory, IndexedDB, HTTP manifest, picked files) — direct
// children with one entry per subfolder, recursive listings, sorting, and `info` called only for listed files.
import { describe, expect, it } from 'vitest';
import { byPath, listFlat } from '../../src/storage/listing.js';
import type { FileInfo } from '../../src/storage/storage.js';

const files: [string, number][] = [
  ['t/z.txt', 1],
  ['t/a/b/c.txt', 2],
  ['t/a.txt', 3],
  ['t/a/d.txt', 4],
  ['u/x.txt', 5],
  ['t2/y.txt', 6],
];
const info = (path: string, size: number): FileInfo => ({ path, size, kind: 'file' });

describe('listFlat', () => {
  it('lists direct children, each subfolder once as a directory, sorted by path', () => {
    expect(listFlat('t', files, false, info)).toEqual([
      { path: 't/a', size: 0, kind: 'directory' },
      { path: 't/a.txt', size: 3, kind: 'file' },
      { path: 't/z.txt', size: 1, kind: 'file' },
    ]);
  });

  it('lists every file below the prefix when recursive, and nothing of a sibling with the same prefix', () => {
    expect(listFlat('t', files, true, info).map((f) => f.path)).toEqual(['t/a.txt', 't/a/b/c.txt', 't/a/d.txt', 't/z.txt']);
  });

  it('lists the root with the empty prefix', () => {
    expect(listFlat('', files, false, info).map((f) => `${f.kind}:${f.path}`)).toEqual(['directory:t', 'directory:t2', 'directory:u']);
  });

  it('calls info only for the files it lists', () => {
    const seen: string[] = [];
    listFlat('t/a', files, false, (path, size) => {
      seen.push(path);
      return info(path, size);
    });
    expect(seen).toEqual(['t/a/d.txt']);
  });

  it('lists a file and a folder of the same name once, as the file (as the memory store does)', () => {
    const clash: [string, number][] = [['d/x/y', 1], ['d/x', 2], ['d/w/v', 3]];
    expect(listFlat('d', clash, false, info)).toEqual([
      { path: 'd/w', size: 0, kind: 'directory' },
      { path: 'd/x', size: 2, kind: 'file' },
    ]);
  });

  it('byPath orders by UTF-16 code units', () => {
    const paths = ['b', 'a/b', 'a.b', 'A'].map((path): FileInfo => ({ path, size: 0, kind: 'file' }));
    expect(paths.sort(byPath).map((f) => f.path)).toEqual(['A', 'a.b', 'a/b', 'b']);
  });
});
