// The metadata table's files partition and `.cdc` log files (#15) on CDC-enabled v9 tables: the MDT lists every
// `.cdc` file on storage (name and size) after COW writes and MOR compactions, the cleaner (listing through the
// MDT) deletes the .cdc files of the slices it cleans and the MDT drops them, a rollback of a CDC write removes its
// .cdc file from both, the MDT's own compaction keeps them in its merged records; validateTable is clean after every step and changes() from files equals inference.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, validateTable, type Storage, type Table } from '../../src/index.js';
import { compactMetadataTable } from '../../src/engine/metadata/metadata-compaction.js';
import { readMetadataListing } from '../../src/engine/metadata/metadata-reads.js';
import { CDC_SCHEMA, row } from '../helpers/cdc-model.js';

const EARLIEST = '00000000000000000';

async function newTable(storage: Storage, type: 'COPY_ON_WRITE' | 'MERGE_ON_READ'): Promise<Table> {
  return createTable(storage, { name: 'c', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: CDC_SCHEMA, clean: { automatic: false }, archive: { automatic: false }, tableVersion: 9, cdc: {} });
}

/** `.cdc` files on storage: path → size. */
async function storedCdc(storage: Storage): Promise<Map<string, number>> {
  return new Map((await storage.list('', { recursive: true })).filter((f) => f.kind === 'file' && f.path.endsWith('.cdc')).map((f) => [f.path, f.size]));
}
/** `.cdc` files the MDT files partition lists: path → size. */
async function listedCdc(storage: Storage): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [partition, files] of (await readMetadataListing(storage))!) for (const [name, size] of files) if (name.endsWith('.cdc')) out.set(partition ? `${partition}/${name}` : name, size);
  return out;
}
/** The `.cdc` files on storage whose slice (a base file of the same file group and instant) storage no longer holds. */
async function orphanCdc(storage: Storage): Promise<string[]> {
  const paths = (await storage.list('', { recursive: true })).map((f) => f.path);
  const bases = new Set(paths.filter((p) => p.endsWith('.parquet')).map((p) => /^(.*\/)?([^/]+?)_[\d-]+_(\d{17})\.parquet$/.exec(p)).map((m) => `${m?.[1] ?? ''}${m?.[2]}@${m?.[3]}`));
  return paths.filter((p) => p.endsWith('.cdc')).filter((p) => {
    const m = /^(.*\/)?\.([^/]+?)_(\d{17})\.log\.\d+_[\d-]+\.cdc$/.exec(p);
    return !bases.has(`${m?.[1] ?? ''}${m?.[2]}@${m?.[3]}`);
  });
}
const sorted = (m: Map<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));

async function expectConsistent(storage: Storage, table: Table): Promise<void> {
  expect(sorted(await listedCdc(storage))).toEqual(sorted(await storedCdc(storage)));
  expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
  const from = (await table.retention()).oldestReadable?.instant ?? EARLIEST;
  expect(await table.changes({ from, cdcSource: 'files' })).toEqual(await table.changes({ from, cdcSource: 'infer' }));
}

describe('COPY_ON_WRITE v9 with the MDT', () => {
  test('writes list their .cdc files; clean deletes the cleaned slices\' .cdc files from storage and the MDT', async () => {
    const storage = memoryStorage();
    const table = await newTable(storage, 'COPY_ON_WRITE');
    const seen: string[] = [];
    for (let i = 1; i <= 5; i++) {
      await table.upsert([row('k1', 'p0', i, `v${i}`), row(`n${i}`, 'p1', i, 'new'), row('k2', 'p1', i, `w${i}`)]);
      await expectConsistent(storage, table);
      for (const p of (await storedCdc(storage)).keys()) if (!seen.includes(p)) seen.push(p);
    }
    expect(seen.length).toBeGreaterThanOrEqual(8);
    expect(await table.clean({ retainCommits: 2 })).toBeDefined();
    const left = await storedCdc(storage);
    expect(left.size).toBeGreaterThan(0);
    expect(left.size).toBeLessThan(seen.length);
    expect(await orphanCdc(storage)).toEqual([]);
    await expectConsistent(storage, table);
  });

  test('the MDT\'s own compaction keeps the .cdc files in the merged files records', async () => {
    const storage = memoryStorage();
    const table = await newTable(storage, 'COPY_ON_WRITE');
    for (let i = 1; i <= 3; i++) await table.upsert([row('a', 'p0', i, `a${i}`), row('b', 'p1', i, `b${i}`)]);
    const before = sorted(await listedCdc(storage));
    expect(before.length).toBe(4);
    expect(await compactMetadataTable(storage, { maxDeltaCommits: 1 })).toBeDefined();
    expect(sorted(await listedCdc(storage))).toEqual(before);
    await expectConsistent(storage, table);
  });

  test('a rollback of a CDC write removes its .cdc files from storage and the MDT', async () => {
    const storage = memoryStorage();
    const table = await newTable(storage, 'COPY_ON_WRITE');
    await table.upsert([row('a', 'p0', 1, 'a1'), row('b', 'p1', 1, 'b1')]);
    await table.upsert([row('a', 'p0', 2, 'a2')]);
    const before = await storedCdc(storage);
    const t3 = (await table.upsert([row('a', 'p0', 3, 'a3'), row('b', 'p1', 3, 'b3')])).instant;
    expect((await listedCdc(storage)).size).toBe(before.size + 2);
    await table.rollback(t3);
    expect(sorted(await storedCdc(storage))).toEqual(sorted(before));
    await expectConsistent(storage, table);
  });
});

describe('MERGE_ON_READ v9 with the MDT', () => {
  test('compactions list their .cdc files; clean removes the cleaned slices\' ones from storage and the MDT', async () => {
    const storage = memoryStorage();
    const table = await newTable(storage, 'MERGE_ON_READ');
    await table.upsert([row('a', 'p0', 1, 'a1'), row('b', 'p1', 1, 'b1')]);
    let compactions = 0;
    for (let i = 2; i <= 6; i++) {
      await table.upsert([row('a', 'p0', i, `a${i}`), row('b', 'p1', i, `b${i}`)]);
      if ((await table.compact()) !== undefined) compactions++;
      await expectConsistent(storage, table);
    }
    expect(compactions).toBeGreaterThanOrEqual(3);
    const written = (await storedCdc(storage)).size;
    expect(written).toBeGreaterThanOrEqual(6);
    expect(await table.clean({ retainCommits: 2 })).toBeDefined();
    const left = await storedCdc(storage);
    expect(left.size).toBeGreaterThan(0);
    expect(left.size).toBeLessThan(written);
    expect(await orphanCdc(storage)).toEqual([]);
    await expectConsistent(storage, table);
  });
});
