// Missing files are noticed (issue 9 item 5, D5): a base or log file the timeline says is live and storage
// lacks is NOT_FOUND naming it, for snapshot, time-travel, read-optimized and incremental reads and for
// writes (which change nothing); cleaned older slices, replaced groups and rolled-back writes are not
// "missing"; a commit file with structurally invalid write stats makes incremental reads CORRUPT_FILE.
import { describe, expect, it } from 'vitest';
import { createTable, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { LakeletError } from '../../src/errors.js';
import { TableState } from '../../src/engine/table-state.js';
import { expectTreeUnchanged, treeSnapshot } from '../helpers/tree-snapshot.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'mf',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: ['null', 'double'], default: null }],
};
const OPTIONS = { bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false } };

async function rowsOf(table: Table, options: Record<string, unknown> = {}): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['id', 'part', 'ts', 'v'], ...options })) out.push(`${r.part}|${r.id}|${r.ts}|${r.v}`);
  return out.sort();
}

async function failure(p: Promise<unknown>): Promise<LakeletError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof LakeletError) return err;
    throw err;
  }
  throw new Error('expected a failure');
}

async function expectMissing(p: Promise<unknown>, path: string): Promise<void> {
  const err = await failure(p);
  expect({ code: err.code, path: err.context.path }).toEqual({ code: 'NOT_FOUND', path });
  expect(err.message).toContain(path);
}

let n = 0;
/** Two commits: rows in partitions x and y, then an update of a in x (COW: a new base file; MOR: a log file). */
async function twoCommits(type: 'COPY_ON_WRITE' | 'MERGE_ON_READ'): Promise<{ storage: Storage; table: Table; first: string; second: string }> {
  const storage = memoryStorage({ label: `missing-${n++}` });
  const table = await createTable(storage, { name: 'mf', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...OPTIONS });
  await table.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }, { id: 'b', part: 'x', ts: 1, v: 2 }, { id: 'c', part: 'y', ts: 1, v: 3 }], OPTIONS);
  await table.upsert([{ id: 'a', part: 'x', ts: 2, v: 10 }], OPTIONS);
  const [first, second] = table.commits.map((c) => c.requestedTime) as [string, string];
  return { storage, table, first, second };
}

/** The paths a commit's write stats name in partition `part=x`. */
async function writtenIn(table: Table, instant: string): Promise<string[]> {
  const md = await table.commitMetadata(instant);
  return (md.partitionToWriteStats['part=x'] ?? []).map((s) => s.path).filter((p): p is string => p !== undefined);
}

describe('copy-on-write: the latest base file deleted', () => {
  it('every read naming the file fails NOT_FOUND; the older slice and other partitions stay readable', async () => {
    const { storage, first, second } = await twoCommits('COPY_ON_WRITE');
    const [latest] = await writtenIn(await openTable(storage), second);
    expect(latest).toMatch(/^part=x\/.*\.parquet$/);
    const asOfFirst = await rowsOf(await openTable(storage), { asOf: first });
    await storage.delete(latest as string);
    const table = await openTable(storage);
    await expectMissing(rowsOf(table), latest as string);
    await expectMissing(table.query(), latest as string);
    await expectMissing(rowsOf(table, { asOf: second }), latest as string);
    await expectMissing(rowsOf(table, { readOptimized: true }), latest as string);
    await expectMissing(table.incremental({ from: first }), latest as string);
    await expectMissing(table.fileSlices(), latest as string);
    // Time travel to before the lost file, and a partition the loss does not touch, still read.
    expect(await rowsOf(table, { asOf: first })).toEqual(asOfFirst);
    expect(await rowsOf(table, { filters: [['part', '=', 'y']] })).toEqual(['y|c|1|3']);
  });

  it('the next upsert, delete, insert and savepoint fail NOT_FOUND and change nothing', async () => {
    const { storage, second } = await twoCommits('COPY_ON_WRITE');
    const [latest] = await writtenIn(await openTable(storage), second);
    await storage.delete(latest as string);
    const table = await openTable(storage);
    const before = await treeSnapshot(storage);
    await expectMissing(table.upsert([{ id: 'b', part: 'x', ts: 5, v: 5 }, { id: 'd', part: 'x', ts: 1, v: 4 }], OPTIONS), latest as string);
    await expectTreeUnchanged(storage, before);
    await expectMissing(table.delete(['b'], OPTIONS), latest as string);
    await expectTreeUnchanged(storage, before);
    await expectMissing(table.insert([{ id: 'e', part: 'x', ts: 1, v: 4 }], OPTIONS), latest as string);
    await expectTreeUnchanged(storage, before);
    await expectMissing(table.savepoint(), latest as string);
    await expectTreeUnchanged(storage, before);
  });
});

describe('merge-on-read', () => {
  it('a deleted log file → NOT_FOUND naming it (not stale values); read-optimized reads the base files', async () => {
    const { storage, second } = await twoCommits('MERGE_ON_READ');
    const [log] = await writtenIn(await openTable(storage), second);
    expect(log).toMatch(/^part=x\/\..*\.log\.\d+_/);
    await storage.delete(log as string);
    const table = await openTable(storage);
    await expectMissing(rowsOf(table), log as string);
    await expectMissing(rowsOf(table, { asOf: second }), log as string);
    expect(await rowsOf(table, { readOptimized: true })).toEqual(['x|a|1|1', 'x|b|1|2', 'y|c|1|3']);
    const before = await treeSnapshot(storage);
    await expectMissing(table.upsert([{ id: 'b', part: 'x', ts: 5, v: 5 }], OPTIONS), log as string);
    await expectTreeUnchanged(storage, before);
    await expectMissing(table.compact(), log as string);
    await expectTreeUnchanged(storage, before);
  });

  it('a deleted base file under logs → NOT_FOUND for snapshot, read-optimized and the next upsert', async () => {
    const { storage, first } = await twoCommits('MERGE_ON_READ');
    const [base] = await writtenIn(await openTable(storage), first);
    expect(base).toMatch(/^part=x\/.*\.parquet$/);
    await storage.delete(base as string);
    const table = await openTable(storage);
    await expectMissing(rowsOf(table), base as string);
    await expectMissing(rowsOf(table, { readOptimized: true }), base as string);
    await expectMissing(rowsOf(table, { asOf: first }), base as string);
    const before = await treeSnapshot(storage);
    await expectMissing(table.upsert([{ id: 'a', part: 'x', ts: 9, v: 9 }], OPTIONS), base as string);
    await expectTreeUnchanged(storage, before);
  });

  it('after compaction the compacted base file is live; the old slice may be cleaned', async () => {
    const { storage, table } = await twoCommits('MERGE_ON_READ');
    const [result] = await table.compact();
    expect(result).toBeDefined();
    const compaction = table.commits[table.commits.length - 1]?.requestedTime as string;
    const [compacted] = await writtenIn(table, compaction);
    expect(compacted).toMatch(/^part=x\/.*\.parquet$/);
    await table.upsert([{ id: 'b', part: 'x', ts: 3, v: 20 }], OPTIONS);
    const cleaned = await table.clean({ retainCommits: 1 });
    expect(cleaned?.filesDeleted ?? 0).toBeGreaterThan(0);
    expect(await rowsOf(await openTable(storage))).toEqual(['x|a|2|10', 'x|b|3|20', 'y|c|1|3']);
    await storage.delete(compacted as string);
    await expectMissing(rowsOf(await openTable(storage)), compacted as string);
  });
});

describe('files removed legitimately are not missing', () => {
  it('a cleaned older slice: reads and writes go on', async () => {
    const { storage, table } = await twoCommits('COPY_ON_WRITE');
    await table.upsert([{ id: 'b', part: 'x', ts: 2, v: 20 }], OPTIONS);
    const result = await table.clean({ retainCommits: 1 });
    expect(result?.filesDeleted ?? 0).toBeGreaterThan(0);
    const reopened = await openTable(storage);
    expect(await rowsOf(reopened)).toEqual(['x|a|2|10', 'x|b|2|20', 'y|c|1|3']);
    expect(await rowsOf(reopened, { readOptimized: true })).toEqual(['x|a|2|10', 'x|b|2|20', 'y|c|1|3']);
    await reopened.upsert([{ id: 'c', part: 'y', ts: 2, v: 30 }], OPTIONS);
    expect(await rowsOf(reopened)).toEqual(['x|a|2|10', 'x|b|2|20', 'y|c|2|30']);
  });

  it('a replaced file group whose files are gone', async () => {
    const { storage, table, first } = await twoCommits('COPY_ON_WRITE');
    const replacedFiles = [...(await writtenIn(table, first)), ...(await writtenIn(table, table.commits[1]?.requestedTime as string))];
    await table.insertOverwrite([{ id: 'z', part: 'x', ts: 1, v: 0 }], OPTIONS);
    for (const f of replacedFiles) await storage.delete(f);
    expect(await rowsOf(await openTable(storage))).toEqual(['x|z|1|0', 'y|c|1|3']);
  });

  it('a rolled-back write', async () => {
    const { storage, table } = await twoCommits('MERGE_ON_READ');
    await table.rollback();
    expect(await rowsOf(await openTable(storage))).toEqual(['x|a|1|1', 'x|b|1|2', 'y|c|1|3']);
  });
});

describe('a service that deletes files while a reader lists them is not a loss', () => {
  it('a clean between loading the timeline and listing the files: no NOT_FOUND', async () => {
    const { storage, second } = await twoCommits('COPY_ON_WRITE');
    const [latest] = await writtenIn(await openTable(storage), second);
    const state = await TableState.load(storage); // the timeline as of `second`; files not listed yet
    const other = await openTable(storage);
    await other.upsert([{ id: 'a', part: 'x', ts: 3, v: 30 }], OPTIONS);
    await other.upsert([{ id: 'a', part: 'x', ts: 4, v: 40 }], OPTIONS);
    expect((await other.clean({ retainCommits: 1 }))?.filesDeleted ?? 0).toBeGreaterThan(0);
    expect(await storage.head(latest as string).catch((err: unknown) => (err as LakeletError).code)).toBe('NOT_FOUND');
    const slices = (await state.fileSystemView()).latestSlices();
    expect(slices.map((s) => s.partitionPath)).toEqual(['part=y']);
  });

  it('a rollback between loading the timeline and listing the files: no NOT_FOUND', async () => {
    const { storage } = await twoCommits('COPY_ON_WRITE');
    const state = await TableState.load(storage);
    await (await openTable(storage)).rollback();
    expect((await (await state.fileSystemView()).latestSlices()).length).toBe(2);
  });
});

describe('corrupt commit metadata', () => {
  it('an incremental query over a commit whose partitionToWriteStats is not an object → CORRUPT_FILE', async () => {
    const { storage, first, second } = await twoCommits('COPY_ON_WRITE');
    const path = `.hoodie/${second}.commit`;
    await storage.write(path, new TextEncoder().encode('{"partitionToWriteStats":"x"}'));
    const table = await openTable(storage);
    const err = await failure(table.incremental({ from: first }));
    expect({ code: err.code, path: err.context.path }).toEqual({ code: 'CORRUPT_FILE', path });
    expect(err.message).toContain('partitionToWriteStats');
  });
});
