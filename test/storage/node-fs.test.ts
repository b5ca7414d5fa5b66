// nodeFsStorage in a fresh temp directory: the shared Storage contract, plus what only a real file system
// can get wrong — temp files left behind, and readers seeing half-written files (write and writeIfAbsent).
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLakeletError } from '../../src/errors.js';
import { nodeFsStorage } from '../../src/storage/node-fs.js';
import type { Storage } from '../../src/storage/storage.js';
import { defineStorageContract, firstDifference, lakeletError, patternBytes } from './contract.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'lakelet-fs-'));
}

/** Every entry below `dir` (files and folders), relative, as the OS sees them. */
async function rawTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.map((e) => e.split('\\').join('/')).sort();
}

defineStorageContract('nodeFsStorage', async () => {
  const dir = await tempDir();
  return { storage: nodeFsStorage(dir), cleanup: () => rm(dir, { recursive: true, force: true }) };
});

describe('nodeFsStorage on a real directory', () => {
  let dir: string;
  let s: Storage;
  beforeEach(async () => {
    dir = await tempDir();
    s = nodeFsStorage(dir);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves no temp files behind after writes and overwrites', async () => {
    await s.write('p/a.parquet', enc('one'));
    await s.write('p/a.parquet', enc('two'));
    await Promise.all(Array.from({ length: 10 }, (_, i) => s.write(`p/f${i}`, enc(String(i)))));
    expect(await s.writeIfAbsent('.hoodie/1.commit', enc('c'))).toBe(true);
    expect(await s.writeIfAbsent('.hoodie/1.commit', enc('d'))).toBe(false);
    const tree = await rawTree(dir);
    expect(tree.filter((p) => p.includes('tmp'))).toEqual([]);
    expect(tree).toEqual(['.hoodie', '.hoodie/1.commit', 'p', 'p/a.parquet', ...Array.from({ length: 10 }, (_, i) => `p/f${i}`)]);
  });

  it('a failed write leaves the old bytes and no temp file', async () => {
    await s.write('blocker', enc('file, not a folder'));
    const err = await lakeletError(s.write('blocker/child', enc('x')));
    expect(['STORAGE', 'NOT_FOUND']).toContain(err.code);
    expect(await rawTree(dir)).toEqual(['blocker']);
    expect(new TextDecoder().decode(await s.read('blocker'))).toBe('file, not a folder');
  });

  it('hides foreign temp files of in-progress writes from listings', async () => {
    await s.write('p/a', enc('a'));
    await writeFile(join(dir, 'p', 'a.lakelet-tmp-abc123'), 'partial');
    expect((await s.list('p')).map((i) => i.path)).toEqual(['p/a']);
    expect((await s.list('', { recursive: true })).map((i) => i.path)).toEqual(['p/a']);
  });

  it('sees files written by others, with sizes and modification times', async () => {
    await writeFile(join(dir, 'outside.txt'), 'from outside');
    const info = await s.head('outside.txt');
    expect(info.size).toBe(12);
    expect(info.lastModified).toBeGreaterThan(0);
  });

  it('write replaces atomically: concurrent readers see the old or the new bytes, never a mix', async () => {
    const oldBytes = patternBytes(6 * 1024 * 1024, 3);
    const newBytes = patternBytes(6 * 1024 * 1024, 4);
    await s.write('big.parquet', oldBytes);
    let done = false;
    const seen: string[] = [];
    const reader = (async () => {
      while (!done) {
        const got = await s.read('big.parquet');
        seen.push(firstDifference(got, oldBytes) === -1 ? 'old' : firstDifference(got, newBytes) === -1 ? 'new' : `torn(${got.length})`);
      }
    })();
    await s.write('big.parquet', newBytes);
    done = true;
    await reader;
    expect(seen.filter((x) => x.startsWith('torn'))).toEqual([]);
    expect(firstDifference(await s.read('big.parquet'), newBytes)).toBe(-1);
  });

  it('writeIfAbsent publishes atomically: a reader never sees a partial file', async () => {
    const bytes = patternBytes(8 * 1024 * 1024, 5);
    let done = false;
    const seen: string[] = [];
    const reader = (async () => {
      while (!done) {
        try {
          const got = await s.read('.hoodie/20240101000000000.commit');
          seen.push(firstDifference(got, bytes) === -1 ? 'full' : `partial(${got.length})`);
        } catch (err) {
          if (!isLakeletError(err, 'NOT_FOUND')) throw err;
          seen.push('absent');
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    expect(await s.writeIfAbsent('.hoodie/20240101000000000.commit', bytes)).toBe(true);
    done = true;
    await reader;
    expect(seen.filter((x) => x.startsWith('partial'))).toEqual([]);
    expect(firstDifference(await s.read('.hoodie/20240101000000000.commit'), bytes)).toBe(-1);
    expect(await rawTree(dir)).toEqual(['.hoodie', '.hoodie/20240101000000000.commit']);
  });

  it('labels itself with the directory', () => {
    expect(s.label).toBe(`fs:${dir}`);
  });
});
