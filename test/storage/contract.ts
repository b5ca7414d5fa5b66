// The shared Storage contract suite (DESIGN.md §2): every adapter runs these same checks, in Node and in the
// browser. `defineStorageContract` covers writable stores; `defineReadOnlyContract` covers read-only ones.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LakeletError } from '../../src/errors.js';
import type { FileInfo, Storage } from '../../src/storage/storage.js';

/** What a contract factory returns: a fresh, empty store and how to dispose of it. */
export interface StorageFixture {
  storage: Storage;
  cleanup?: () => Promise<void>;
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

/** Await `p` and return the LakeletError it rejects with (fails the test when it resolves or throws something else). */
export async function lakeletError(p: Promise<unknown>): Promise<LakeletError> {
  let result: unknown;
  try {
    result = await p;
  } catch (err) {
    expect(err).toBeInstanceOf(LakeletError);
    return err as LakeletError;
  }
  throw new Error(`expected a LakeletError, got ${String(result)}`);
}

/** Deterministic pseudo-random bytes (xorshift), so failures are reproducible. */
export function patternBytes(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

const paths = (infos: FileInfo[]): string[] => infos.map((i) => i.path);

/** Index of the first differing byte, or -1 when equal (cheaper than a deep equal on megabytes). */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/** Parts of the contract a test server cannot honour; each names the reason, shown in the skipped suite's title. */
export interface ContractGaps {
  /** The server has no atomic create (e.g. s3rver ignores `If-None-Match: *`): the writeIfAbsent checks are skipped. */
  writeIfAbsent?: string;
}

/**
 * Run the Storage contract against a writable store. `factory` must return an empty store each time.
 * `gaps` skips (visibly, with the reason) what the server behind the store cannot do; cover those elsewhere.
 */
export function defineStorageContract(name: string, factory: () => Promise<StorageFixture>, gaps: ContractGaps = {}): void {
  describe(`Storage contract: ${name}`, () => {
    let fx: StorageFixture;
    let s: Storage;
    beforeEach(async () => {
      fx = await factory();
      s = fx.storage;
    });
    afterEach(async () => {
      await fx.cleanup?.();
    });

    it('is writable and has a label', () => {
      expect(s.readOnly).toBe(false);
      expect(typeof s.label).toBe('string');
      expect(s.label.length).toBeGreaterThan(0);
    });

    it('writes, heads and reads a file', async () => {
      await s.write('a/b/c.txt', enc('hello'));
      const info = await s.head('a/b/c.txt');
      expect(info.path).toBe('a/b/c.txt');
      expect(info.size).toBe(5);
      expect(info.kind).toBe('file');
      expect(dec(await s.read('a/b/c.txt'))).toBe('hello');
    });

    it('writes an empty file', async () => {
      await s.write('empty', new Uint8Array(0));
      expect((await s.head('empty')).size).toBe(0);
      expect((await s.read('empty')).length).toBe(0);
    });

    it('overwrites a file with write', async () => {
      await s.write('f.bin', enc('first version, longer'));
      await s.write('f.bin', enc('second'));
      expect(dec(await s.read('f.bin'))).toBe('second');
      expect((await s.head('f.bin')).size).toBe(6);
      expect(paths(await s.list('', { recursive: true }))).toEqual(['f.bin']);
    });

    it('does not alias the caller buffer', async () => {
      const bytes = enc('abc');
      await s.write('x', bytes);
      bytes[0] = 0x7a;
      expect(dec(await s.read('x'))).toBe('abc');
      const got = await s.read('x');
      got[0] = 0x7a;
      expect(dec(await s.read('x'))).toBe('abc');
    });

    it('round-trips every byte value', async () => {
      const all = new Uint8Array(512);
      for (let i = 0; i < all.length; i++) all[i] = i & 0xff;
      await s.write('bin/all-bytes', all);
      expect(await s.read('bin/all-bytes')).toEqual(all);
    });

    it('round-trips a 5 MiB file and reads ranges of it', async () => {
      const big = patternBytes(5 * 1024 * 1024, 7);
      await s.write('big/file.parquet', big);
      expect((await s.head('big/file.parquet')).size).toBe(big.length);
      const back = await s.read('big/file.parquet');
      expect(back.length).toBe(big.length);
      expect(firstDifference(back, big)).toBe(-1);
      const mid = await s.read('big/file.parquet', { start: 3_000_000, end: 3_000_100 });
      expect(mid).toEqual(big.subarray(3_000_000, 3_000_100));
      const tail = await s.read('big/file.parquet', { start: big.length - 8, end: big.length });
      expect(tail).toEqual(big.subarray(big.length - 8));
    });

    describe('ranges', () => {
      beforeEach(async () => {
        await s.write('r.txt', enc('0123456789'));
      });
      it('reads [start, end) end-exclusive', async () => {
        expect(dec(await s.read('r.txt', { start: 2, end: 5 }))).toBe('234');
        expect(dec(await s.read('r.txt', { start: 0, end: 10 }))).toBe('0123456789');
        expect(dec(await s.read('r.txt', { start: 9, end: 10 }))).toBe('9');
      });
      it('gives an empty result for start = end', async () => {
        expect((await s.read('r.txt', { start: 4, end: 4 })).length).toBe(0);
        expect((await s.read('r.txt', { start: 0, end: 0 })).length).toBe(0);
        expect((await s.read('r.txt', { start: 10, end: 10 })).length).toBe(0);
      });
      it('clamps an end beyond the size', async () => {
        expect(dec(await s.read('r.txt', { start: 7, end: 1000 }))).toBe('789');
      });
      it('gives an empty result for a start beyond the size', async () => {
        expect((await s.read('r.txt', { start: 11, end: 20 })).length).toBe(0);
        expect((await s.read('r.txt', { start: 1000, end: 1000 })).length).toBe(0);
      });
      it.each([
        ['end before start', { start: 5, end: 2 }],
        ['negative start', { start: -1, end: 3 }],
        ['fractional start', { start: 1.5, end: 3 }],
        ['NaN end', { start: 0, end: Number.NaN }],
      ])('rejects %s with INVALID_ARGUMENT', async (_label, range) => {
        const err = await lakeletError(s.read('r.txt', range));
        expect(err.code).toBe('INVALID_ARGUMENT');
      });
    });

    describe('missing files', () => {
      it('head → NOT_FOUND naming the path', async () => {
        const err = await lakeletError(s.head('no/such/file'));
        expect(err.code).toBe('NOT_FOUND');
        expect(String(err.context.path)).toMatch(/(^|\/)no\/such\/file$/);
      });
      it('read → NOT_FOUND naming the path, with or without a range', async () => {
        const err = await lakeletError(s.read('missing.bin'));
        expect(err.code).toBe('NOT_FOUND');
        expect(String(err.context.path)).toMatch(/(^|\/)missing\.bin$/);
        const ranged = await lakeletError(s.read('missing.bin', { start: 0, end: 4 }));
        expect(ranged.code).toBe('NOT_FOUND');
      });
      it('head and read of a directory → NOT_FOUND', async () => {
        await s.write('dir/inner.txt', enc('x'));
        expect((await lakeletError(s.head('dir'))).code).toBe('NOT_FOUND');
        expect((await lakeletError(s.read('dir'))).code).toBe('NOT_FOUND');
      });
      it('a deleted file is gone', async () => {
        await s.write('gone.txt', enc('x'));
        await s.delete('gone.txt');
        expect((await lakeletError(s.head('gone.txt'))).code).toBe('NOT_FOUND');
        expect((await lakeletError(s.read('gone.txt'))).code).toBe('NOT_FOUND');
        expect(paths(await s.list('', { recursive: true }))).toEqual([]);
      });
    });

    it('delete is idempotent and leaves siblings alone', async () => {
      await s.write('d/one', enc('1'));
      await s.write('d/two', enc('2'));
      await s.delete('d/one');
      await s.delete('d/one');
      await s.delete('never/existed');
      expect(paths(await s.list('d'))).toEqual(['d/two']);
      expect(dec(await s.read('d/two'))).toBe('2');
    });

    describe('list', () => {
      beforeEach(async () => {
        // Written out of order on purpose: listings must come back sorted by path.
        for (const p of ['t/z.txt', 't/b/2.txt', 't/a.txt', 't/b/1.txt', 't/b/deep/x.txt', 't/B.txt', 'top.txt', 'u/other.txt']) {
          await s.write(p, enc(p));
        }
      });
      it('non-recursive: direct files and directories, sorted', async () => {
        const got = await s.list('t');
        expect(got.map((i) => [i.path, i.kind])).toEqual([
          ['t/B.txt', 'file'],
          ['t/a.txt', 'file'],
          ['t/b', 'directory'],
          ['t/z.txt', 'file'],
        ]);
        const file = got.find((i) => i.path === 't/a.txt');
        expect(file?.size).toBe('t/a.txt'.length);
      });
      it('recursive: every file below, no directories, sorted', async () => {
        const got = await s.list('t', { recursive: true });
        expect(paths(got)).toEqual(['t/B.txt', 't/a.txt', 't/b/1.txt', 't/b/2.txt', 't/b/deep/x.txt', 't/z.txt']);
        expect(got.every((i) => i.kind === 'file')).toBe(true);
        expect(got.find((i) => i.path === 't/b/deep/x.txt')?.size).toBe('t/b/deep/x.txt'.length);
      });
      it('the root lists as the prefix ""', async () => {
        expect((await s.list('')).map((i) => [i.path, i.kind])).toEqual([
          ['t', 'directory'],
          ['top.txt', 'file'],
          ['u', 'directory'],
        ]);
        expect(paths(await s.list('', { recursive: true }))).toEqual([
          't/B.txt', 't/a.txt', 't/b/1.txt', 't/b/2.txt', 't/b/deep/x.txt', 't/z.txt', 'top.txt', 'u/other.txt',
        ]);
      });
      it('a nested prefix lists only its own entries', async () => {
        expect(paths(await s.list('t/b'))).toEqual(['t/b/1.txt', 't/b/2.txt', 't/b/deep']);
        expect(paths(await s.list('t/b/deep', { recursive: true }))).toEqual(['t/b/deep/x.txt']);
      });
      it('a prefix is a directory, not a string prefix', async () => {
        await s.write('tt/sibling.txt', enc('x'));
        expect(paths(await s.list('t', { recursive: true }))).not.toContain('tt/sibling.txt');
        expect(paths(await s.list('t'))).not.toContain('tt');
      });
      it('a missing directory lists as empty', async () => {
        expect(await s.list('nope')).toEqual([]);
        expect(await s.list('nope/deeper', { recursive: true })).toEqual([]);
      });
      it('a trailing slash on the prefix is accepted', async () => {
        expect(paths(await s.list('t/b/'))).toEqual(['t/b/1.txt', 't/b/2.txt', 't/b/deep']);
      });
    });

    const writeIfAbsentSuite = gaps.writeIfAbsent === undefined ? describe : describe.skip;
    writeIfAbsentSuite(gaps.writeIfAbsent === undefined ? 'writeIfAbsent' : `writeIfAbsent (not testable here: ${gaps.writeIfAbsent})`, () => {
      it('creates a missing file and refuses an existing one', async () => {
        expect(await s.writeIfAbsent('w/once', enc('first'))).toBe(true);
        expect(await s.writeIfAbsent('w/once', enc('second'))).toBe(false);
        expect(dec(await s.read('w/once'))).toBe('first');
      });
      it('refuses a file created by write', async () => {
        await s.write('w/plain', enc('plain'));
        expect(await s.writeIfAbsent('w/plain', enc('other'))).toBe(false);
        expect(dec(await s.read('w/plain'))).toBe('plain');
      });
      it('creates again after a delete', async () => {
        expect(await s.writeIfAbsent('w/again', enc('1'))).toBe(true);
        await s.delete('w/again');
        expect(await s.writeIfAbsent('w/again', enc('2'))).toBe(true);
        expect(dec(await s.read('w/again'))).toBe('2');
      });
      it('20 concurrent callers: exactly one wins and its content stays', async () => {
        const contents = Array.from({ length: 20 }, (_, i) => enc(`writer-${i}-`.repeat(100 + i)));
        const results = await Promise.all(contents.map((c) => s.writeIfAbsent('.hoodie/20240101000000000.commit', c)));
        expect(results.filter((r) => r)).toHaveLength(1);
        const winner = results.indexOf(true);
        expect(dec(await s.read('.hoodie/20240101000000000.commit'))).toBe(dec(contents[winner] as Uint8Array));
        expect(paths(await s.list('.hoodie'))).toEqual(['.hoodie/20240101000000000.commit']);
      });
    });

    describe('path validation', () => {
      const bad = ['a/../b', '..', '../x', 'a//b', 'a/./b', '.'];
      it.each(bad)('rejects %j with INVALID_ARGUMENT on every operation', async (p) => {
        for (const op of [
          () => s.head(p),
          () => s.read(p),
          () => s.write(p, enc('x')),
          () => s.writeIfAbsent(p, enc('x')),
          () => s.list(p),
          () => s.delete(p),
        ]) {
          const err = await lakeletError(op());
          expect(err.code).toBe('INVALID_ARGUMENT');
        }
        expect(await s.list('', { recursive: true })).toEqual([]);
      });
      it('accepts names with dots, spaces, = and unicode', async () => {
        const names = ['.hoodie/hoodie.properties', 'city=san francisco/.f_1.log.1_0-1-2', 'ünï/ç.txt', '..dots../x'];
        for (const n of names) await s.write(n, enc(n));
        for (const n of names) expect(dec(await s.read(n))).toBe(n);
      });
      it('a leading slash means the same path', async () => {
        await s.write('/lead/x.txt', enc('x'));
        expect((await s.head('lead/x.txt')).path).toBe('lead/x.txt');
        expect(dec(await s.read('/lead/x.txt'))).toBe('x');
      });
    });
  });
}

/**
 * Run the read-only side of the contract. `factory` must return a store holding exactly `files`
 * (path → UTF-8 text), with at least one nested file.
 */
export function defineReadOnlyContract(name: string, files: Record<string, string>, factory: () => Promise<StorageFixture>): void {
  describe(`read-only Storage contract: ${name}`, () => {
    let fx: StorageFixture;
    let s: Storage;
    const sorted = Object.keys(files).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const first = sorted[0] ?? '';
    beforeEach(async () => {
      fx = await factory();
      s = fx.storage;
    });
    afterEach(async () => {
      await fx.cleanup?.();
    });

    it('says it is read-only', () => {
      expect(s.readOnly).toBe(true);
    });

    it('lists and reads every file', async () => {
      expect(paths(await s.list('', { recursive: true }))).toEqual(sorted);
      for (const [p, text] of Object.entries(files)) {
        expect(dec(await s.read(p))).toBe(text);
        const info = await s.head(p);
        expect(info).toMatchObject({ path: p, size: enc(text).length, kind: 'file' });
      }
    });

    it('reads ranges and reports NOT_FOUND for missing files', async () => {
      const text = files[first] ?? '';
      expect(dec(await s.read(first, { start: 1, end: 3 }))).toBe(text.slice(1, 3));
      expect((await lakeletError(s.head('missing'))).code).toBe('NOT_FOUND');
      expect((await lakeletError(s.read('missing'))).code).toBe('NOT_FOUND');
      expect((await lakeletError(s.read(first, { start: 3, end: 1 }))).code).toBe('INVALID_ARGUMENT');
    });

    it('rejects every write with UNSUPPORTED naming the path, and changes nothing', async () => {
      for (const op of [
        () => s.write('new.txt', enc('x')),
        () => s.write(first, enc('x')),
        () => s.writeIfAbsent('new.txt', enc('x')),
        () => s.writeIfAbsent(first, enc('x')),
        () => s.delete(first),
        () => s.delete('missing'),
      ]) {
        const err = await lakeletError(op());
        expect(err.code).toBe('UNSUPPORTED');
        expect(typeof err.context.path).toBe('string');
      }
      expect(paths(await s.list('', { recursive: true }))).toEqual(sorted);
      expect(dec(await s.read(first))).toBe(files[first]);
    });
  });
}
