// nodeFsStorage in a fresh temp directory: the shared Storage contract, plus what only a real file system
// can get wrong — temp files left behind, and readers seeing half-written files (write and writeIfAbsent).
import * as fsPromises from 'node:fs/promises';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeFsStorage, type NodeFsOps } from '../../src/storage/node-fs.js';
import type { Storage } from '../../src/storage/storage.js';
import { createProbe, pause, probeDuringWrite, replaceProbe, writeEveryWay, type WriteGate } from './atomic-writes.js';
import { defineStorageContract, lakeletError, patternBytes } from './contract.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/**
 * node:fs/promises for a writer that stops twice on the way of one write: after the first half of its temp
 * file's bytes (`half`) and just before publishing it by rename or link (`publish`). Readers use their own store.
 */
function pausingFs(): WriteGate & { fs: NodeFsOps } {
  const half = pause();
  const publish = pause();
  const fs: NodeFsOps = {
    ...fsPromises,
    open: (async (path: string, flags?: string) => {
      const handle = await fsPromises.open(path, flags);
      if (!path.includes('.lakelet-tmp-')) return handle;
      let calls = 0;
      return new Proxy(handle, {
        get(target, key) {
          if (key === 'write') {
            return async (buffer: Uint8Array, offset: number, length: number) => {
              if (calls++ === 0) return target.write(buffer, offset, Math.floor(length / 2));
              await half.arrive();
              return target.write(buffer, offset, length);
            };
          }
          const v = Reflect.get(target, key) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
    }) as NodeFsOps['open'],
    rename: async (from, to) => {
      await publish.arrive();
      return fsPromises.rename(from, to);
    },
    link: async (from, to) => {
      await publish.arrive();
      return fsPromises.link(from, to);
    },
  };
  return { fs, half, publish };
}

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
    const expected = await writeEveryWay(s);
    const tree = await rawTree(dir);
    expect(tree.filter((p) => p.includes('tmp'))).toEqual([]);
    expect(tree).toEqual(expected);
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

  it('write replaces atomically: readers during the write (temp file half written, then about to be renamed) see the old bytes', async () => {
    const oldBytes = patternBytes(256 * 1024, 3);
    const newBytes = patternBytes(256 * 1024, 4);
    await s.write('big.parquet', oldBytes);
    const gate = pausingFs();
    const seen = replaceProbe(s, 'big.parquet', oldBytes, newBytes);
    const { during } = await probeDuringWrite(gate, () => nodeFsStorage(dir, { fs: gate.fs }).write('big.parquet', newBytes), seen, async () => {
      // The half-written temp file is really there, next to the target.
      const temps = (await rawTree(dir)).filter((p) => p.includes('.lakelet-tmp-'));
      expect(temps).toHaveLength(1);
      expect((await stat(join(dir, temps[0] ?? ''))).size).toBe(newBytes.length / 2);
    });
    expect(during).toEqual(['old', 'old', 'old', 'old', 'old', 'old']);
    expect(await seen()).toBe('new');
    expect(await rawTree(dir)).toEqual(['big.parquet']);
  });

  it('writeIfAbsent publishes atomically: readers during the write see no file, never a partial one', async () => {
    const bytes = patternBytes(256 * 1024, 5);
    const path = '.hoodie/20240101000000000.commit';
    const gate = pausingFs();
    const seen = createProbe(s, path, bytes);
    const { result, during } = await probeDuringWrite(gate, () => nodeFsStorage(dir, { fs: gate.fs }).writeIfAbsent(path, bytes), seen, async () => {
      expect((await rawTree(dir)).filter((p) => p.includes('.lakelet-tmp-'))).toHaveLength(1);
    });
    expect(result).toBe(true);
    expect(during).toEqual(['absent', 'absent', 'absent', 'absent', 'absent', 'absent']);
    expect(await seen()).toBe('full');
    expect(await rawTree(dir)).toEqual(['.hoodie', '.hoodie/20240101000000000.commit']);
  });

  it('labels itself with the directory', () => {
    expect(s.label).toBe(`fs:${dir}`);
  });
});
