// zipStorage: a read-only store over a .zip built in the test with fflate — the read-only contract, macOS
// junk and directory entries skipped, a real fixture zip opened in place, and non-zip bytes → CORRUPT_FILE.
import { readFileSync } from 'node:fs';
import { zipSync, type Zippable } from 'fflate';
import { describe, expect, inject, it } from 'vitest';
import { zipStorage } from '../../src/storage/zip.js';
import { defineReadOnlyContract, lakeletError } from './contract.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

const files = {
  'table/.hoodie/hoodie.properties': 'hoodie.table.name=t',
  'table/p=1/a.parquet': 'PAR1 data PAR1',
  'table/top.txt': 'top',
};

function zipOf(entries: Record<string, string>, level: 0 | 6 = 6): Uint8Array {
  const z: Zippable = {};
  for (const [p, t] of Object.entries(entries)) z[p] = [enc(t), { level }];
  return zipSync(z);
}

defineReadOnlyContract('zipStorage (deflated)', files, async () => ({ storage: zipStorage(zipOf(files)) }));
defineReadOnlyContract('zipStorage (stored, from an ArrayBuffer)', files, async () => {
  const bytes = zipOf(files, 0);
  const buffer = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(buffer).set(bytes);
  return { storage: zipStorage(buffer) };
});

describe('zipStorage', () => {
  it('skips __MACOSX/ resource forks and directory entries, keeps .DS_Store as an ordinary file', async () => {
    const z: Zippable = {
      'table/': new Uint8Array(0),
      'table/a.txt': enc('a'),
      'table/.DS_Store': enc('junk'),
      '__MACOSX/': new Uint8Array(0),
      '__MACOSX/table/._a.txt': enc('fork'),
    };
    const s = zipStorage(zipSync(z));
    expect((await s.list('', { recursive: true })).map((i) => i.path)).toEqual(['table/.DS_Store', 'table/a.txt']);
    expect((await s.list('')).map((i) => [i.path, i.kind])).toEqual([['table', 'directory']]);
    expect((await lakeletError(s.head('__MACOSX/table/._a.txt'))).code).toBe('NOT_FOUND');
  });

  it('uses the label in messages', async () => {
    const s = zipStorage(zipOf(files), { label: 'trips.zip' });
    expect(s.label).toBe('trips.zip');
    const err = await lakeletError(s.write('x', enc('x')));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.message).toContain('trips.zip');
  });

  it.each([
    ['text', enc('this is not a zip archive at all, just some text')],
    ['a truncated zip', zipOf(files).subarray(0, 40)],
    ['empty bytes', new Uint8Array(0)],
  ])('rejects %s with CORRUPT_FILE naming the archive', (_label, bytes) => {
    let caught: unknown;
    try {
      zipStorage(bytes, { label: 'bad.zip' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ name: 'LakeletError', code: 'CORRUPT_FILE', context: { path: 'bad.zip' } });
  });

  it('opens a fixture table zip in place (junk skipped, hoodie.properties readable)', async () => {
    const bytes = new Uint8Array(readFileSync(`${inject('FIXTURES_DIR')}/sample_table/cow/v6_nonpartitioned.zip`));
    const s = zipStorage(bytes);
    const all = (await s.list('', { recursive: true })).map((i) => i.path);
    expect(all.some((p) => p.startsWith('__MACOSX/'))).toBe(false);
    expect(all).toContain('v6_nonpartitioned/.hoodie/hoodie.properties');
    const text = new TextDecoder().decode(await s.read('v6_nonpartitioned/.hoodie/hoodie.properties'));
    expect(text).toContain('hoodie.table.name=v6_nonpartitioned');
  });
});
