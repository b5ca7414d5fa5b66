// opfsStorage in headless Chromium: the shared Storage contract (by folder path, by handle, and without
// FileSystemHandle.move), atomic replacement and creation, quota failures, writeIfAbsent races across
// instances and a worker, and the same operations run from a dedicated worker with sync access handles.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storageError } from '../../src/storage/dom-errors.js';
import { opfsStorage, type OpfsStorage } from '../../src/storage/opfs.js';
import { STREAM_CHUNK } from '../../src/storage/opfs-handles.js';
import { createProbe, pause, probeDuringWrite, replaceProbe, writeEveryWay, type WriteGate } from './atomic-writes.js';
import { defineStorageContract, lakeletError, patternBytes } from './contract.js';
import type { WorkerReply, WorkerRequest } from './opfs-worker.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);
const BASE = 'lakelet-opfs-test';
let counter = 0;
const freshFolder = () => `${BASE}/run-${Date.now()}-${counter++}`;

async function removeFolder(folder: string): Promise<void> {
  let dir = await navigator.storage.getDirectory();
  const parts = folder.split('/');
  const last = parts.pop() as string;
  try {
    for (const p of parts) dir = await dir.getDirectoryHandle(p);
    await dir.removeEntry(last, { recursive: true });
  } catch {
    /* never created */
  }
}

/**
 * Pause the page's next OPFS write twice: after the first half of the bytes reach its writable stream (`half`)
 * and just before the temp file is moved over the target (`publish`). Patches the prototypes until `restore()`.
 */
function pauseOpfsWrites(): WriteGate & { restore(): void } {
  const streamProto = FileSystemWritableFileStream.prototype as unknown as { write(data: unknown): Promise<void> };
  const fileProto = FileSystemFileHandle.prototype as unknown as { move?(...args: unknown[]): Promise<void> };
  const write = streamProto.write;
  const move = fileProto.move;
  if (typeof move !== 'function') throw new Error('this Chromium has no FileSystemFileHandle.move(): the publish pause needs it');
  const half = pause();
  const publish = pause();
  let writes = 0;
  streamProto.write = async function (this: unknown, data: unknown) {
    if (writes++ === 0 && data instanceof Uint8Array) {
      await write.call(this, data.subarray(0, data.length / 2));
      await half.arrive();
      return write.call(this, data.subarray(data.length / 2));
    }
    return write.call(this, data);
  };
  let moves = 0;
  fileProto.move = async function (this: unknown, ...args: unknown[]) {
    if (moves++ === 0) await publish.arrive();
    return move.apply(this, args);
  };
  return { half, publish, restore: () => { streamProto.write = write; fileProto.move = move; } };
}

async function folderHandle(folder: string): Promise<FileSystemDirectoryHandle> {
  let dir = await navigator.storage.getDirectory();
  for (const p of folder.split('/')) dir = await dir.getDirectoryHandle(p, { create: true });
  return dir;
}

/** Every entry below `folder` as OPFS itself sees it (temp files included). */
async function rawTree(folder: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: FileSystemDirectoryHandle, rel: string): Promise<void> => {
    for await (const [name, h] of (dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries()) {
      const path = rel ? `${rel}/${name}` : name;
      out.push(path);
      if (h.kind === 'directory') await walk(h as FileSystemDirectoryHandle, path);
    }
  };
  await walk(await folderHandle(folder), '');
  return out.sort();
}

defineStorageContract('opfsStorage (page, folder path)', async () => {
  const folder = freshFolder();
  return { storage: opfsStorage(folder), cleanup: () => removeFolder(folder) };
});

defineStorageContract('opfsStorage (page, directory handle)', async () => {
  const folder = freshFolder();
  return { storage: opfsStorage(await folderHandle(folder)), cleanup: () => removeFolder(folder) };
});

type Movable = { move?: unknown };
defineStorageContract('opfsStorage (page, no FileSystemFileHandle.move: write in place + verify)', async () => {
  const folder = freshFolder();
  const proto = FileSystemFileHandle.prototype as Movable;
  const move = Object.getOwnPropertyDescriptor(proto, 'move');
  delete proto.move;
  return {
    storage: opfsStorage(folder),
    cleanup: async () => {
      if (move) Object.defineProperty(proto, 'move', move);
      await removeFolder(folder);
    },
  };
});

describe('opfsStorage in the page', () => {
  let folder: string;
  let s: OpfsStorage;
  beforeEach(() => {
    folder = freshFolder();
    s = opfsStorage(folder);
  });
  afterEach(async () => {
    await removeFolder(folder);
  });
  /** The temp file exists (with Chromium's .crswap of its open writable stream next to it). */
  const oneTempFile = async (): Promise<void> => {
    expect((await rawTree(folder)).filter((p) => p.includes('.lakelet-tmp-') && !p.endsWith('.crswap'))).toHaveLength(1);
  };

  it('labels itself with the folder and writes through writable streams', () => {
    expect(s.label).toBe(`opfs:${folder}`);
    expect(s.writeMethod).toBe('writable-stream');
    expect(opfsStorage('/x/y/').label).toBe('opfs:x/y');
    expect(opfsStorage('x', { label: 'mine' }).label).toBe('mine');
  });

  it('a large file goes into the stream 1 MiB at a time (no long main-thread copy), and reads back whole', async () => {
    const proto = (globalThis as unknown as { FileSystemWritableFileStream: { prototype: { write: (data: unknown) => Promise<void> } } }).FileSystemWritableFileStream.prototype;
    const original = proto.write;
    const sizes: number[] = [];
    proto.write = function (this: unknown, data: unknown) {
      sizes.push(ArrayBuffer.isView(data) ? data.byteLength : -1);
      return original.call(this, data);
    };
    try {
      const bytes = patternBytes(2 * STREAM_CHUNK + STREAM_CHUNK / 2 + 7);
      await s.write('big/file.parquet', bytes);
      expect(sizes).toEqual([STREAM_CHUNK, STREAM_CHUNK, STREAM_CHUNK / 2 + 7]);
      expect(await s.read('big/file.parquet')).toEqual(bytes);
    } finally {
      proto.write = original;
    }
  });

  it('rejects an invalid folder path', () => {
    expect(() => opfsStorage('a/../b')).toThrow(/invalid path/);
  });

  it('leaves no temp files behind, and hides foreign ones from listings', async () => {
    const expected = await writeEveryWay(s);
    expect(await rawTree(folder)).toEqual(expected);
    const dir = await (await folderHandle(folder)).getDirectoryHandle('p');
    await (await dir.getFileHandle('a.parquet.lakelet-tmp-abc123', { create: true })).createWritable().then((w) => w.close());
    const open = await (await dir.getFileHandle('f0', { create: true })).createWritable(); // Chromium shows p/f0.crswap meanwhile
    expect(await rawTree(folder)).toContain('p/f0.crswap');
    expect((await s.list('p')).map((i) => i.path)).toEqual(['p/a.parquet', ...Array.from({ length: 10 }, (_, i) => `p/f${i}`)]);
    expect((await s.list('', { recursive: true })).filter((i) => i.path.startsWith('p/'))).toHaveLength(11);
    await open.abort();
  });

  it('lists temp files a crash left only with includeTemporary (for the cleaner), and deletes them', async () => {
    await s.write('p/a.parquet', enc('one'));
    const dir = await (await folderHandle(folder)).getDirectoryHandle('p');
    await (await dir.getFileHandle('b.parquet.lakelet-tmp-crash1', { create: true })).createWritable().then(async (w) => {
      await w.write('partial');
      await w.close();
    });
    expect((await s.list('p')).map((i) => i.path)).toEqual(['p/a.parquet']);
    const all = await s.list('', { recursive: true, includeTemporary: true });
    expect(all.map((i) => i.path)).toEqual(['p/a.parquet', 'p/b.parquet.lakelet-tmp-crash1']);
    expect(all[1]?.size).toBe(7);
    expect(all[1]?.lastModified).toBeGreaterThan(0);
    await s.delete('p/b.parquet.lakelet-tmp-crash1');
    expect(await rawTree(folder)).toEqual(['p', 'p/a.parquet']);
  });

  it('sees files written by others through the OPFS API', async () => {
    const dir = await folderHandle(folder);
    const w = await (await dir.getFileHandle('outside.txt', { create: true })).createWritable();
    await w.write('from outside');
    await w.close();
    expect(await s.head('outside.txt')).toMatchObject({ path: 'outside.txt', size: 12, kind: 'file' });
    expect((await s.head('outside.txt')).lastModified).toBeGreaterThan(0);
  });

  it('write replaces atomically: readers during the write (temp file half written, then about to be moved) see the old bytes', async () => {
    const oldBytes = patternBytes(256 * 1024, 3);
    const newBytes = patternBytes(256 * 1024, 4);
    await s.write('big.parquet', oldBytes);
    const seen = replaceProbe(s, 'big.parquet', oldBytes, newBytes);
    const gate = pauseOpfsWrites();
    try {
      const { during } = await probeDuringWrite(gate, () => s.write('big.parquet', newBytes), seen, oneTempFile);
      expect(during).toEqual(['old', 'old', 'old', 'old', 'old', 'old']);
    } finally {
      gate.restore();
    }
    expect(await seen()).toBe('new');
    expect(await rawTree(folder)).toEqual(['big.parquet']);
  });

  it('writeIfAbsent publishes atomically: readers during the write see no file, never a partial or empty one', async () => {
    const bytes = patternBytes(256 * 1024, 5);
    const path = '.hoodie/20240101000000000.commit';
    const seen = createProbe(s, path, bytes);
    const gate = pauseOpfsWrites();
    try {
      const { result, during } = await probeDuringWrite(gate, () => s.writeIfAbsent(path, bytes), seen, oneTempFile);
      expect(result).toBe(true);
      expect(during).toEqual(['absent', 'absent', 'absent', 'absent', 'absent', 'absent']);
    } finally {
      gate.restore();
    }
    expect(await seen()).toBe('full');
  });

  it('writeIfAbsent: 20 concurrent callers on 4 separate instances of one folder → exactly one wins', async () => {
    const stores = [s, opfsStorage(folder), opfsStorage(folder), opfsStorage(await folderHandle(folder))];
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (stores[i % 4] as OpfsStorage).writeIfAbsent('.hoodie/7.commit', enc(`writer ${i}`))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(dec(await s.read('.hoodie/7.commit'))).toBe(`writer ${results.indexOf(true)}`);
    expect(await rawTree(folder)).toEqual(['.hoodie', '.hoodie/7.commit']);
  });

  it('writeIfAbsent holds a Web Lock per path while it creates', async () => {
    let held: string[] = [];
    await navigator.locks.request(`lakelet:opfs:${folder}/.hoodie/9.commit`, async () => {
      const pending = s.writeIfAbsent('.hoodie/9.commit', enc('x'));
      // The create queues on the path's Web Lock (polled, not slept on).
      await expect.poll(async () => (await navigator.locks.query()).pending?.map((l) => l.name ?? '') ?? []).toContain(`lakelet:opfs:${folder}/.hoodie/9.commit`);
      held = (await navigator.locks.query()).pending?.map((l) => l.name ?? '') ?? [];
      await expect(s.head('.hoodie/9.commit')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      void pending;
    });
    expect(held).toContain(`lakelet:opfs:${folder}/.hoodie/9.commit`);
    // once the lock is released, the waiting create goes ahead
    await expect.poll(async () => (await s.list('.hoodie')).map((i) => i.path)).toEqual(['.hoodie/9.commit']);
  });

  it('a path below a file, or a folder in place of a file, is NOT_FOUND on read and refused on create', async () => {
    await s.write('blocker', enc('file, not a folder'));
    const err = await lakeletError(s.head('blocker/child'));
    expect(err.code).toBe('NOT_FOUND');
    expect(err.context.path).toBe('blocker/child');
    expect(['STORAGE', 'NOT_FOUND']).toContain((await lakeletError(s.write('blocker/child', enc('x')))).code);
    await s.write('dir/inner', enc('x'));
    expect(await s.writeIfAbsent('dir', enc('x'))).toBe(false);
    await s.delete('dir'); // a folder is not deleted by delete()
    expect(dec(await s.read('dir/inner'))).toBe('x');
    expect(await rawTree(folder)).toEqual(['blocker', 'dir', 'dir/inner']);
  });
});

describe('opfsStorage quota handling', () => {
  it('maps a QuotaExceededError DOMException to STORAGE naming the file', () => {
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    const err = storageError('opfs:t', 'p/f.parquet', 'write', quota);
    expect(err.code).toBe('STORAGE');
    expect(err.context).toMatchObject({ path: 'p/f.parquet', reason: 'QUOTA_EXCEEDED' });
    expect(err.message).toContain('quota');
    expect(err.message).toContain('p/f.parquet');
    expect(err.cause).toBe(quota);
    expect(storageError('opfs:t', 'x', 'read', new DOMException('gone', 'NotFoundError')).code).toBe('NOT_FOUND');
    expect(storageError('opfs:t', 'x', 'read', new DOMException('dir', 'TypeMismatchError')).code).toBe('NOT_FOUND');
    expect(storageError('opfs:t', 'x', 'read', new DOMException('no', 'NoModificationAllowedError'))).toMatchObject({ code: 'STORAGE', context: { path: 'x' } });
  });

  for (const withMove of [true, false]) {
    it(`a write that runs out of quota raises STORAGE and leaves no file (${withMove ? 'temp + move' : 'in place'})`, async () => {
      const folder = freshFolder();
      const s = opfsStorage(folder);
      await s.write('keep.txt', enc('kept'));
      const proto = FileSystemWritableFileStream.prototype;
      const write = Object.getOwnPropertyDescriptor(proto, 'write') as PropertyDescriptor;
      const handleProto = FileSystemFileHandle.prototype as Movable;
      const move = Object.getOwnPropertyDescriptor(handleProto, 'move');
      Object.defineProperty(proto, 'write', { configurable: true, value: () => Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')) });
      if (!withMove) delete handleProto.move;
      try {
        for (const op of [() => s.write('p/big.parquet', patternBytes(1000)), () => s.writeIfAbsent('.hoodie/1.commit', enc('c')), () => s.write('keep.txt', enc('replaced'))]) {
          const err = await lakeletError(op());
          expect(err.code).toBe('STORAGE');
          expect(err.message).toMatch(/quota/);
          expect(['p/big.parquet', '.hoodie/1.commit', 'keep.txt']).toContain(err.context.path);
        }
      } finally {
        Object.defineProperty(proto, 'write', write);
        if (move) Object.defineProperty(handleProto, 'move', move);
      }
      expect((await s.list('', { recursive: true })).map((i) => i.path)).toEqual(['keep.txt']);
      expect(dec(await s.read('keep.txt'))).toBe('kept');
      expect((await rawTree(folder)).filter((p) => p.includes('.lakelet-tmp-') || p.endsWith('.parquet') || p.endsWith('.commit'))).toEqual([]);
      expect(await s.writeIfAbsent('.hoodie/1.commit', enc('c'))).toBe(true);
      await removeFolder(folder);
    });
  }
});

describe('opfsStorage in a dedicated worker', () => {
  let worker: Worker;
  let folder: string;
  const ask = (req: WorkerRequest): Promise<WorkerReply> =>
    new Promise((resolve, reject) => {
      const w = new Worker(new URL('./opfs-worker.ts', import.meta.url), { type: 'module' });
      worker = w;
      w.onmessage = (e: MessageEvent<WorkerReply>) => {
        w.terminate();
        resolve(e.data);
      };
      w.onerror = (e) => {
        w.terminate();
        reject(new Error(`worker failed: ${e.message}`));
      };
      w.postMessage(req);
    });
  beforeEach(() => {
    folder = freshFolder();
  });
  const racers: Worker[] = [];
  afterEach(async () => {
    worker?.terminate();
    for (const w of racers.splice(0)) w.terminate();
    await removeFolder(folder);
  });

  it('writes with sync access handles; the page reads what the worker wrote', async () => {
    const size = 4 * 1024 * 1024 + 17;
    const reply = await ask({ kind: 'basics', folder, size });
    expect(reply.error).toBeUndefined();
    expect(reply.ok).toBe(true);
    expect(reply.syncHandles).toBe(true);
    expect(reply.writeMethod).toBe('sync-access-handle');
    expect(reply.checks).toEqual({
      roundTrip: true,
      range: true,
      size,
      list: ['.hoodie/1.commit', 'data/big.bin', 'data/small.txt'],
      top: ['directory:.hoodie', 'directory:data'],
      creates: [true, false],
      missing: 'NOT_FOUND:gone',
    });
    const s = opfsStorage(folder);
    expect((await s.head('data/big.bin')).size).toBe(size);
    expect(dec(await s.read('data/small.txt'))).toBe('from the worker, again');
    expect(dec(await s.read('.hoodie/1.commit'))).toBe('one');
    expect((await rawTree(folder)).filter((p) => p.includes('.lakelet-tmp-'))).toEqual([]);
  });

  it('writeIfAbsent race between the page and two workers: exactly one of 30 callers wins', async () => {
    const path = '.hoodie/20240101000000000.commit';
    // Message barrier: each worker sets up and reports ready; then the page says go to both and starts its own.
    const racer = () => {
      const w = new Worker(new URL('./opfs-worker.ts', import.meta.url), { type: 'module' });
      racers.push(w);
      let ready!: () => void;
      const isReady = new Promise<void>((r) => { ready = r; });
      const done = new Promise<WorkerReply>((resolve, reject) => {
        w.onmessage = (e: MessageEvent<WorkerReply>) => (e.data.ready ? ready() : resolve(e.data));
        w.onerror = (e) => reject(new Error(`worker failed: ${e.message}`));
      });
      w.postMessage({ kind: 'race', folder, path, callers: 10 } satisfies WorkerRequest);
      return { isReady, done, go: () => w.postMessage({ kind: 'go' } satisfies WorkerRequest) };
    };
    const s = opfsStorage(folder);
    await s.list('');
    const workers = [racer(), racer()];
    await Promise.all(workers.map((w) => w.isReady));
    for (const w of workers) w.go();
    const mine = await Promise.all(Array.from({ length: 10 }, (_, i) => s.writeIfAbsent(path, enc(`page-${i}`))));
    const replies = await Promise.all(workers.map((w) => w.done));
    for (const r of replies) expect(r.error).toBeUndefined();
    for (const r of replies) expect(r.wins === 0 || r.wins === 1).toBe(true);
    const wins = mine.filter(Boolean).length + replies.reduce((n, r) => n + (r.wins ?? 0), 0);
    expect(wins).toBe(1);
    expect(dec(await s.read(path))).toMatch(/^(page|worker)-\d$/);
    expect(await rawTree(folder)).toEqual(['.hoodie', `${path}`]);
  });
});
