// table.history(key) on tables we write, COW and MOR, versions 6 and 9: a key inserted, updated twice, deleted
// and reinserted gives five versions newest first with their ops, values, commit (and completion) times and files;
// across a compaction, a clustering, a clean (the history ends at the cleaned slices: `cleaned` marker, the oldest retained
// value as `unknown`), an archival (still complete, commit info from the archived timeline), a key that never
// existed, files of writes the lost archive knew (`archived`), a composite key given as its fields, a global index's
// partition move, the metadata table's listing and record index. Expected versions come from the writes the test made.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, type RecordVersion, type Table, type TableType } from '../../src/index.js';
import { CDC_SCHEMA as SCHEMA, row, type R } from '../helpers/cdc-model.js';
import { failure } from '../helpers/expect-error.js';

async function newTable(type: TableType, tableVersion: 6 | 9): Promise<Table> {
  return createTable(memoryStorage(), {
    name: 'h', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, index: 'BLOOM', tableVersion,
    metadataTable: false, compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false },
  });
}

/** Writes k1's five versions (insert, update, update, delete, reinsert), with other keys around it. */
async function fiveVersions(table: Table, compactAfterUpdates = false): Promise<{ instants: string[]; compaction?: string }> {
  const instants: string[] = [];
  instants.push((await table.upsert([row('k1', 'p', 1, 'a'), row('k2', 'p', 1, 'x'), row('q1', 'q', 1, 'x')])).instant);
  instants.push((await table.upsert([row('k1', 'p', 2, 'b'), row('q1', 'q', 2, 'y')])).instant);
  instants.push((await table.upsert([row('k1', 'p', 3, 'c')])).instant);
  const compaction = compactAfterUpdates ? (await table.compact({ force: true }))[0]?.instant : undefined;
  instants.push((await table.delete(['k1'])).instant);
  instants.push((await table.upsert([row('k1', 'p', 5, 'e'), row('k2', 'p', 5, 'z')])).instant);
  return compaction === undefined ? { instants } : { instants, compaction };
}

const brief = (v: RecordVersion) => [v.op, v.commitTime, (v.value as R | null)?.val ?? null];

for (const version of [6, 9] as const) {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    describe(`history: ${type} table version ${version}`, () => {
      test('insert, two updates, delete, reinsert: five versions newest first, then the creation marker', async () => {
        const table = await newTable(type, version);
        const { instants } = await fiveVersions(table);
        const h = await table.history('k1');
        expect(h.key).toBe('k1');
        expect(h.versions.map(brief)).toEqual([
          ['insert', instants[4], 'e'], ['delete', instants[3], null], ['update', instants[2], 'c'], ['update', instants[1], 'b'], ['insert', instants[0], 'a'],
        ]);
        expect(h.end).toEqual({ reason: 'created', before: instants[0] });
        expect(h.versions[0]?.value).toEqual(row('k1', 'p', 5, 'e'));
        for (const v of h.versions) {
          expect(v.partitionPath).toBe('part=p');
          expect(v.file?.startsWith('part=p/'), `${v.commitTime} names its file`).toBe(true);
          expect(v.file).toContain(v.fileId);
          if (version === 9) expect(v.completionTime, 'v9 versions carry completion times').toBe(table.commits.find((c) => c.requestedTime === v.commitTime)?.completionTime);
          else expect(v.completionTime).toBeUndefined();
        }
        expect(h.versions.map((v) => v.operation)).toEqual(['UPSERT', 'DELETE', 'UPSERT', 'UPSERT', 'UPSERT']);
        // Another key's history is its own; with meta columns the values keep them.
        const k2 = await table.history('k2', { metaColumns: true });
        expect(k2.versions.map((v) => [v.op, v.commitTime, (v.value as R).val, v.value?._hoodie_commit_time])).toEqual([['update', instants[4], 'z', instants[4]], ['insert', instants[0], 'x', instants[0]]]);
      });

      test('a key that never existed: no versions, the whole history searched (absent); the partition option narrows', async () => {
        const table = await newTable(type, version);
        const { instants } = await fiveVersions(table);
        expect(await table.history('nope')).toEqual({ key: 'nope', versions: [], end: { reason: 'absent' } });
        expect((await table.history('k1', { partition: 'part=q' })).versions).toEqual([]);
        expect((await table.history('q1', { partition: 'part=q' })).versions.map(brief)).toEqual([['update', instants[1], 'y'], ['insert', instants[0], 'x']]);
        expect((await failure(table.history(''))).code).toBe('INVALID_ARGUMENT');
      });

      test('a clean: versions before the oldest readable instant are gone, the marker says so, the oldest retained value is kept', async () => {
        const table = await newTable(type, version);
        const instants: string[] = [];
        for (let n = 1; n <= 5; n++) {
          instants.push((await table.upsert([row('k1', 'p', n, `v${n}`), row(`o${n}`, 'p', n, 'x')])).instant);
          if (type === 'MERGE_ON_READ') await table.compact({ force: true }); // new slices, so the cleaner has old ones to remove
        }
        const cleaned = await table.clean({ retainCommits: 2 });
        expect(cleaned?.filesDeleted).toBeGreaterThan(0);
        const oldest = (await table.retention()).oldestReadable?.instant;
        expect(oldest).toBeDefined();
        const at = instants.findIndex((t) => t >= (oldest as string));
        expect(at).toBeGreaterThan(0);
        const h = await table.history('k1');
        expect(h.end.reason).toBe('cleaned');
        // The writes after the cut are known updates; the value at the cut is the oldest retained, op unknown.
        const cut = h.end.before as string;
        expect(cut >= (oldest as string)).toBe(true);
        const known = instants.filter((t) => t > cut).reverse();
        expect(h.versions.map(brief)).toEqual([
          ...known.map((t) => ['update', t, `v${instants.indexOf(t) + 1}`]),
          ['unknown', instants.filter((t) => t <= cut).pop(), `v${instants.filter((t) => t <= cut).length}`],
        ]);
        expect(h.versions.some((v) => v.commitTime < (instants.filter((t) => t <= cut).pop() as string)), 'nothing older than the retained slices').toBe(false);
        const retained = h.versions[h.versions.length - 1];
        expect(retained?.file, 'the oldest retained value names the file its commit wrote').toMatch(new RegExp(`^part=p/\\.?${retained?.fileId}.*(\\.parquet|\\.log\\.)`));
        expect(retained?.operation).toBe('UPSERT');
        // A key that never existed after a clean: it may have existed in the cleaned slices.
        expect((await table.history('nope')).end).toEqual({ reason: 'cleaned', before: cut });
      });

      test('archival without a clean: the history is complete, commit info from the archived timeline', async () => {
        const table = await newTable(type, version);
        const { instants } = await fiveVersions(table);
        for (let n = 0; n < 4; n++) instants.push((await table.upsert([row(`z${n}`, 'q', n, 'x')])).instant);
        const archived = await table.archive({ keepMinCommits: 2, keepMaxCommits: 3 });
        expect(archived.map((i) => i.requestedTime)).toEqual(expect.arrayContaining(instants.slice(0, 5)));
        expect(table.commits.some((c) => c.requestedTime === instants[0]), 'the first commit left the active timeline').toBe(false);
        const h = await table.history('k1');
        expect(h.versions.map(brief)).toEqual([
          ['insert', instants[4], 'e'], ['delete', instants[3], null], ['update', instants[2], 'c'], ['update', instants[1], 'b'], ['insert', instants[0], 'a'],
        ]);
        expect(h.versions.map((v) => v.operation), 'operations from the archived commit metadata').toEqual(['UPSERT', 'DELETE', 'UPSERT', 'UPSERT', 'UPSERT']);
        if (version === 9) for (const v of h.versions) expect(v.completionTime && v.completionTime >= v.commitTime, `${v.commitTime} completion from the archive`).toBe(true);
        expect(h.end).toEqual({ reason: 'created', before: instants[0] });
      });

      test('across a clustering: the record goes on in the new file group, no version at the replacecommit', async () => {
        const table = await newTable(type, version);
        const t0 = (await table.upsert([row('k1', 'p', 1, 'a'), row('k2', 'p', 1, 'x')])).instant;
        const t1 = (await table.upsert([row('k3', 'p', 1, 'y')])).instant; // a second small file group in p
        const clustering = await table.cluster({ smallFileLimitBytes: 1 << 30 });
        expect(clustering).toBeDefined();
        const t2 = (await table.upsert([row('k1', 'p', 2, 'b')])).instant;
        const h = await table.history('k1');
        expect(h.versions.map(brief)).toEqual([['update', t2, 'b'], ['insert', t0, 'a']]);
        expect(h.versions[0]?.fileId, 'the update is in the clustered group').not.toBe(h.versions[1]?.fileId);
        expect(t1 < t2).toBe(true);
        expect(h.end).toEqual({ reason: 'created', before: t0 });
      });

      if (type === 'MERGE_ON_READ') {
        test('across a compaction: no version at the compaction, the versions either side unchanged', async () => {
          const table = await newTable(type, version);
          const { instants, compaction } = await fiveVersions(table, true);
          expect(compaction).toBeDefined();
          const h = await table.history('k1');
          expect(h.versions.map(brief)).toEqual([
            ['insert', instants[4], 'e'], ['delete', instants[3], null], ['update', instants[2], 'c'], ['update', instants[1], 'b'], ['insert', instants[0], 'a'],
          ]);
          expect(h.versions.some((v) => v.commitTime === compaction)).toBe(false);
        });
      }
    });
  }
}

describe('history: instants archived beyond the archive', () => {
  for (const version of [6, 9] as const) {
    test(`version ${version}: files of writes no timeline knows end the history at the oldest known write (archived)`, async () => {
      const table = await newTable('COPY_ON_WRITE', version);
      const { instants } = await fiveVersions(table);
      for (let n = 0; n < 4; n++) instants.push((await table.upsert([row(`z${n}`, 'q', n, 'x')])).instant);
      await table.archive({ keepMinCommits: 2, keepMaxCommits: 3 });
      // The archive is lost (deleted by hand): the archived writes' files remain, their instants are unknown.
      for (const f of await table.storage.list(table.config.archivePath, { recursive: true })) if (f.kind === 'file') await table.storage.delete(f.path);
      await table.refresh();
      const first = table.commits[0]?.requestedTime as string;
      expect(instants.indexOf(first)).toBeGreaterThan(4);
      const h = await table.history('k1');
      expect(h.end).toEqual({ reason: 'archived', before: first });
      // The value still on storage is reported, its commit named by the row, what it did unknown.
      expect(h.versions.map(brief)).toEqual([['unknown', instants[4], 'e']]);
    });
  }
});

describe('history: keys and partitions', () => {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`${type} v9 with the metadata table and its record index: the same five versions (listing through the metadata table)`, { timeout: 60_000 }, async () => {
      const table = await createTable(memoryStorage(), { name: 'h', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, index: 'RECORD_INDEX', tableVersion: 9, metadataTable: true, compaction: { inline: false } });
      const { instants } = await fiveVersions(table);
      const h = await table.history('k1');
      expect(h.versions.map(brief)).toEqual([
        ['insert', instants[4], 'e'], ['delete', instants[3], null], ['update', instants[2], 'c'], ['update', instants[1], 'b'], ['insert', instants[0], 'a'],
      ]);
      expect(await table.history('k1', { listing: 'storage' })).toEqual(h);
    });
  }

  test('a composite key, as its fields or as the record key string', async () => {
    const table = await createTable(memoryStorage(), { name: 'h', type: 'COPY_ON_WRITE', recordKey: ['id', 'val'], orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, metadataTable: false });
    const t0 = (await table.upsert([row('k1', 'p', 1, 'a'), row('k1', 'p', 1, 'b')])).instant;
    const t1 = (await table.upsert([row('k1', 'p', 2, 'a')])).instant;
    const h = await table.history({ id: 'k1', val: 'a' });
    expect(h.key).toBe('id:k1,val:a');
    expect(h.versions.map((v) => [v.op, v.commitTime, (v.value as R).ts])).toEqual([['update', t1, 2n], ['insert', t0, 1n]]);
    expect(await table.history('id:k1,val:a')).toEqual(h);
    expect((await table.history({ id: 'k1', val: 'b' })).versions.map((v) => v.op)).toEqual(['insert']);
    expect((await failure(table.history({ id: 'k1' }))).code).toBe('INVALID_ARGUMENT');
  });

  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`${type}: a partition move with a global index is one update naming the group it left`, async () => {
      const table = await createTable(memoryStorage(), { name: 'h', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, index: 'GLOBAL_BLOOM', metadataTable: false, compaction: { inline: false } });
      const t0 = (await table.upsert([row('k1', 'a', 1, 'x'), row('k2', 'a', 1, 'y')])).instant;
      const t1 = (await table.upsert([row('k1', 'b', 2, 'moved')])).instant;
      const t2 = (await table.upsert([row('k1', 'b', 3, 'again')])).instant;
      const h = await table.history('k1');
      expect(h.versions.map((v) => [v.op, v.commitTime, v.partitionPath, (v.value as R).val])).toEqual([
        ['update', t2, 'part=b', 'again'], ['update', t1, 'part=b', 'moved'], ['insert', t0, 'part=a', 'x'],
      ]);
      expect(h.versions[1]?.movedFrom).toEqual({ partitionPath: 'part=a', fileId: h.versions[2]?.fileId });
      expect(h.end).toEqual({ reason: 'created', before: t0 });
    });
  }
});
