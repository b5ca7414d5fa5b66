// Store kinds for the crash matrix: where the base table lives and how each crash point gets a fresh copy
// of it — the in-memory store, or nodeFsStorage on temp folders (which can also show the temp files its
// listing hides, and leave a torn one).
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { memoryStorage, type Storage } from '../../src/index.js';
import { nodeFsStorage } from '../../src/node/index.js';
import { copyStorage } from './storage-faults.js';

/** One store kind: a place for the base table and cheap copies of it. */
export interface StoreKind {
  name: 'memory' | 'node-fs';
  /** A new empty store. */
  fresh(): Promise<Storage>;
  /** A copy of a store made by this kind. */
  copy(s: Storage): Promise<Storage>;
  /** Files the store's listing hides (node-fs temp files). */
  hidden(s: Storage): Promise<string[]>;
  /** Leave a partial temp file for a write of `path` (the `torn` model). */
  tear(s: Storage, path: string, bytes: Uint8Array): Promise<void>;
  /** Remove what `fresh`/`copy` made. */
  dispose(): Promise<void>;
}

/** The in-memory store. */
export function memoryKind(): StoreKind {
  return {
    name: 'memory',
    fresh: async () => memoryStorage(),
    copy: (s) => copyStorage(s, (files) => memoryStorage({ files })),
    hidden: async () => [],
    tear: async () => undefined,
    dispose: async () => undefined,
  };
}

/** nodeFsStorage on temp folders (copied with fs.cp). */
export function nodeFsKind(): StoreKind {
  const dirs = new Map<Storage, string>();
  let root: string | undefined;
  const make = async (): Promise<[Storage, string]> => {
    root ??= await mkdtemp(join(tmpdir(), 'lakelet-crash-'));
    const dir = await mkdtemp(join(root, 't-'));
    const s = nodeFsStorage(dir);
    dirs.set(s, dir);
    return [s, dir];
  };
  const dirOf = (s: Storage) => {
    const d = dirs.get(s);
    if (d === undefined) throw new Error('crash harness: not a node-fs store of this kind');
    return d;
  };
  return {
    name: 'node-fs',
    fresh: async () => (await make())[0],
    copy: async (s) => {
      const [c, dir] = await make();
      await cp(dirOf(s), dir, { recursive: true });
      return c;
    },
    hidden: async (s) => {
      const dir = dirOf(s);
      const entries = await readdir(dir, { recursive: true, withFileTypes: true });
      return entries.filter((e) => e.isFile() && e.name.includes('.lakelet-tmp-')).map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
    },
    tear: async (s, path, bytes) => {
      const target = join(dirOf(s), path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(`${target}.lakelet-tmp-torn`, bytes);
    },
    dispose: async () => {
      if (root) await rm(root, { recursive: true, force: true });
    },
  };
}
