// nodeFsStorage's durability and error mapping, observed through its file-system seam (`options.fs`): a
// power loss cannot be staged in a test, so these check the order of the calls that make a write durable
// (fsync the file, publish it, fsync the folder), and errors (EACCES, EPERM, ENAMETOOLONG) that a test
// running as root cannot provoke on a real directory are injected into the real calls.
import * as fsp from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTable } from '../../src/index.js';
import { nodeFsStorage, type NodeFsOps } from '../../src/storage/node-fs.js';
import { lakeletError } from './contract.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Which call to fail, with which errno code. */
interface Fault {
  op: keyof NodeFsOps;
  /** Fail only calls on paths (relative to the store's root) this matches. */
  path: RegExp;
  code: string;
}

/**
 * The real `node:fs/promises`, logging `open`, `sync` (of a file or a folder), `rename`, `link`, `mkdir` and
 * `unlink` calls as `<op> <relative path>` (temp names shortened to `<name>.tmp`), and failing the calls a
 * fault names.
 */
function recordingFs(root: string, log: string[], faults: Fault[] = []): NodeFsOps {
  const rel = (p: unknown): string => {
    const s = String(p);
    const r = s === root ? '.' : s.startsWith(root + sep) ? s.slice(root.length + 1).split(sep).join('/') : s;
    return r.replace(/\.lakelet-tmp-[a-z0-9]+$/, '.tmp');
  };
  const check = (op: keyof NodeFsOps, path: unknown): void => {
    const f = faults.find((x) => x.op === op && x.path.test(rel(path)));
    if (f) throw Object.assign(new Error(`${f.code}: injected, ${op} '${String(path)}'`), { code: f.code });
  };
  const ops: NodeFsOps = {
    ...fsp,
    open: (async (path: string, flags?: string) => {
      check('open', path);
      const handle = await fsp.open(path, flags);
      log.push(`open ${rel(path)} ${flags ?? 'r'}`);
      return new Proxy(handle, {
        get(target, prop) {
          if (prop === 'sync') return async () => {
            log.push(`sync ${rel(path)}`);
            return target.sync();
          };
          const v = Reflect.get(target, prop, target) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
    }) as NodeFsOps['open'],
    rename: (async (from: string, to: string) => {
      check('rename', to);
      await fsp.rename(from, to);
      log.push(`rename ${rel(from)} ${rel(to)}`);
    }) as NodeFsOps['rename'],
    link: (async (from: string, to: string) => {
      check('link', to);
      await fsp.link(from, to);
      log.push(`link ${rel(from)} ${rel(to)}`);
    }) as NodeFsOps['link'],
    mkdir: (async (path: string, options?: { recursive?: boolean }) => {
      check('mkdir', path);
      const first = await fsp.mkdir(path, options);
      if (first !== undefined) log.push(`mkdir ${rel(first)}`);
      return first;
    }) as NodeFsOps['mkdir'],
    unlink: (async (path: string) => {
      check('unlink', path);
      await fsp.unlink(path);
      log.push(`unlink ${rel(path)}`);
    }) as NodeFsOps['unlink'],
    readFile: (async (path: string) => {
      check('readFile', path);
      return fsp.readFile(path);
    }) as NodeFsOps['readFile'],
    stat: (async (path: string) => {
      check('stat', path);
      return fsp.stat(path);
    }) as NodeFsOps['stat'],
  };
  return ops;
}

/** Position of the first log entry equal to `entry` (fails the test when missing). */
function at(log: string[], entry: string): number {
  const i = log.indexOf(entry);
  expect(log, `missing "${entry}"`).toContain(entry);
  return i;
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lakelet-durable-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('nodeFsStorage durability: fsync before publishing, folder fsync after', () => {
  it('write: the temp file is synced before the rename, the folder after it; new folders are synced into their parents', async () => {
    const log: string[] = [];
    const s = nodeFsStorage(dir, { fs: recordingFs(dir, log) });
    await s.write('.hoodie/.temp/x/p/a.parquet', enc('bytes'));
    expect(log.filter((e) => !e.startsWith('open'))).toEqual([
      'mkdir .hoodie',
      'sync .hoodie/.temp/x', 'sync .hoodie/.temp', 'sync .hoodie', 'sync .',
      'sync .hoodie/.temp/x/p/a.parquet.tmp',
      'rename .hoodie/.temp/x/p/a.parquet.tmp .hoodie/.temp/x/p/a.parquet',
      'sync .hoodie/.temp/x/p',
    ]);
    log.length = 0;
    await s.write('.hoodie/.temp/x/p/a.parquet', enc('again'));
    const tmpSync = at(log, 'sync .hoodie/.temp/x/p/a.parquet.tmp');
    const rename = at(log, 'rename .hoodie/.temp/x/p/a.parquet.tmp .hoodie/.temp/x/p/a.parquet');
    const dirSync = at(log, 'sync .hoodie/.temp/x/p');
    expect(tmpSync).toBeLessThan(rename);
    expect(rename).toBeLessThan(dirSync);
    expect(new TextDecoder().decode(await s.read('.hoodie/.temp/x/p/a.parquet'))).toBe('again');
  });

  it('writeIfAbsent: the temp file is synced before the link, the folder after it', async () => {
    const log: string[] = [];
    const s = nodeFsStorage(dir, { fs: recordingFs(dir, log) });
    await s.write('.hoodie/hoodie.properties', enc('p'));
    log.length = 0;
    expect(await s.writeIfAbsent('.hoodie/1.commit', enc('c'))).toBe(true);
    const tmpSync = at(log, 'sync .hoodie/1.commit.tmp');
    const link = at(log, 'link .hoodie/1.commit.tmp .hoodie/1.commit');
    const dirSync = at(log, 'sync .hoodie');
    expect(tmpSync).toBeLessThan(link);
    expect(link).toBeLessThan(dirSync);
    expect(log.at(-1)).toBe('unlink .hoodie/1.commit.tmp');
  });

  it('writeIfAbsent without hard links (link fails EPERM, injected): the exclusive create is synced, then the folder', async () => {
    const log: string[] = [];
    const s = nodeFsStorage(dir, { fs: recordingFs(dir, log, [{ op: 'link', path: /\.commit$/, code: 'EPERM' }]) });
    await s.write('.hoodie/hoodie.properties', enc('p'));
    log.length = 0;
    expect(await s.writeIfAbsent('.hoodie/1.commit', enc('c'))).toBe(true);
    const create = at(log, 'open .hoodie/1.commit wx');
    const fileSync = at(log, 'sync .hoodie/1.commit');
    const dirSync = at(log, 'sync .hoodie');
    expect(create).toBeLessThan(fileSync);
    expect(fileSync).toBeLessThan(dirSync);
    expect(await s.writeIfAbsent('.hoodie/1.commit', enc('d'))).toBe(false);
  });

  it('fsync: false publishes the same way without any fsync', async () => {
    const log: string[] = [];
    const s = nodeFsStorage(dir, { fs: recordingFs(dir, log), fsync: false });
    await s.write('p/a', enc('a'));
    expect(await s.writeIfAbsent('p/b', enc('b'))).toBe(true);
    expect(log.filter((e) => e.startsWith('sync'))).toEqual([]);
    expect(log.filter((e) => !e.startsWith('open'))).toEqual(['mkdir p', 'rename p/a.tmp p/a', 'link p/b.tmp p/b', 'unlink p/b.tmp']);
  });

  it('a table write syncs every data file and its folder before the completed instant is linked', async () => {
    const log: string[] = [];
    const s = nodeFsStorage(dir, { fs: recordingFs(dir, log) });
    const table = await createTable(s, {
      name: 'durable', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'],
      schema: { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }] },
      clean: { automatic: false }, archive: { automatic: false },
    });
    await table.upsert([{ id: 'a', part: 'x', ts: 1 }, { id: 'b', part: 'y', ts: 1 }]);
    const commitLink = log.findIndex((e) => /^link \.hoodie\/\d+\.commit\.tmp \.hoodie\/\d+\.commit$/.test(e));
    expect(commitLink).toBeGreaterThan(0);
    const dataFiles = log.filter((e) => /^rename part=(x|y)\/.*\.parquet\.tmp /.test(e)).map((e) => e.split(' ')[2] as string);
    expect(dataFiles).toHaveLength(2);
    for (const f of dataFiles) {
      expect(at(log, `sync ${f}.tmp`)).toBeLessThan(at(log, `rename ${f}.tmp ${f}`));
      expect(at(log, `rename ${f}.tmp ${f}`)).toBeLessThan(commitLink);
      expect(log.lastIndexOf(`sync ${f.slice(0, f.lastIndexOf('/'))}`)).toBeLessThan(commitLink);
    }
  });
});

describe('nodeFsStorage errors name what went wrong (errno codes injected through the fs seam: tests run as root)', () => {
  it('EACCES on delete (injected: a read-only folder) is STORAGE "permission denied" naming the path, not "no file at"', async () => {
    const s = nodeFsStorage(dir, { fs: recordingFs(dir, [], [{ op: 'unlink', path: /^p\/a$/, code: 'EACCES' }]) });
    await s.write('p/a', enc('a'));
    const err = await lakeletError(s.delete('p/a'));
    expect(err.code).toBe('STORAGE');
    expect(err.message).toContain('permission denied');
    expect(err.message).toContain('"p/a"');
    expect(err.context.path).toBe('p/a');
    expect(new TextDecoder().decode(await s.read('p/a'))).toBe('a');
  });

  it('EPERM on delete of a file (injected) is STORAGE "permission denied"; deleting a folder stays a no-op', async () => {
    const s = nodeFsStorage(dir, { fs: recordingFs(dir, [], [{ op: 'unlink', path: /^p\/a$/, code: 'EPERM' }]) });
    await s.write('p/a', enc('a'));
    const err = await lakeletError(s.delete('p/a'));
    expect(err.code).toBe('STORAGE');
    expect(err.message).toMatch(/permission denied.*"p\/a".*EPERM/);
    await s.delete('p'); // a folder: unlink says EISDIR (Linux), nothing is deleted
    expect((await s.list('p')).map((f) => f.path)).toEqual(['p/a']);
  });

  it('EACCES on write and read (injected) is STORAGE "permission denied" naming the path', async () => {
    const s = nodeFsStorage(dir, { fs: recordingFs(dir, [], [{ op: 'rename', path: /^q\//, code: 'EACCES' }, { op: 'readFile', path: /^p\/a$/, code: 'EACCES' }]) });
    await s.write('p/a', enc('a'));
    const w = await lakeletError(s.write('q/b', enc('b')));
    expect([w.code, w.context.path]).toEqual(['STORAGE', 'q/b']);
    expect(w.message).toContain('permission denied, cannot write "q/b"');
    expect((await s.list('q', { includeTemporary: true })).map((f) => f.path)).toEqual([]);
    const r = await lakeletError(s.read('p/a'));
    expect([r.code, r.context.path]).toEqual(['STORAGE', 'p/a']);
    expect(r.message).toContain('permission denied, cannot read "p/a"');
  });

  it('ENAMETOOLONG (a real 300-character name) is INVALID_ARGUMENT naming the path', async () => {
    const s = nodeFsStorage(dir);
    const path = `city=${'x'.repeat(300)}/f.parquet`;
    const err = await lakeletError(s.write(path, enc('x')));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toContain(JSON.stringify(path));
    expect(err.context.path).toBe(path);
  });

  it('other errno codes are STORAGE with the code (ENOSPC injected)', async () => {
    const s = nodeFsStorage(dir, { fs: recordingFs(dir, [], [{ op: 'open', path: /\.tmp$/, code: 'ENOSPC' }]) });
    const err = await lakeletError(s.write('p/a', enc('a')));
    expect(err.code).toBe('STORAGE');
    expect(err.message).toContain('ENOSPC');
    expect(err.context.value).toBe('ENOSPC');
  });

  it('a missing file is still NOT_FOUND; deleting one is still a no-op', async () => {
    const s = nodeFsStorage(dir);
    expect((await lakeletError(s.read('nope'))).code).toBe('NOT_FOUND');
    expect((await lakeletError(s.head('p/nope'))).code).toBe('NOT_FOUND');
    await s.delete('nope');
    await s.delete('p/nope/deeper');
  });
});
