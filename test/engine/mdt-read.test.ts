// Reads listed through the metadata table (`listing: 'metadata'`, the default on tables with an MDT `files`
// partition) on the three MDT fixtures: every query kind gives exactly the rows and slices of a storage-listed
// read, without listing a data partition; record-key filters read only the file group `record_index` names;
// column and partition stats skip files and partitions that cannot match (fewer data files opened, same rows);
// an MDT that is unreadable or whose `files` folder is incompletely listed falls back to storage with a warning.
import { describe, expect, it } from 'vitest';
import { openTable, type Storage } from '../../src/index.js';
import { isMetaPath, METADATA_TABLE_DIR, PROPERTIES_PATH } from '../../src/layout.js';
import { collect, fixtureCopy, fixtureStorage } from '../helpers/fixtures.js';
import type { Filter } from '../../src/expr/filter.js';
import type { ReadWarning } from '../../src/engine/read/file-slice-reader.js';

const FIXTURES = [
  'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip',
  'sample_table/mor/avro/v9_nonpartitioned_rollback.zip',
  'quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip',
];

/** A store recording every read and list call. */
function counting(inner: Storage): { storage: Storage; reads: string[]; lists: string[] } {
  const reads: string[] = [];
  const lists: string[] = [];
  const storage: Storage = {
    label: inner.label,
    readOnly: inner.readOnly,
    head: (p) => inner.head(p),
    list: (p, o) => { lists.push(p); return inner.list(p, o); },
    read: (p, r) => { reads.push(p); return inner.read(p, r); },
    write: (p, b) => inner.write(p, b),
    writeIfAbsent: (p, b) => inner.writeIfAbsent(p, b),
    delete: (p) => inner.delete(p),
  };
  return { storage, reads, lists };
}

const json = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));
/** Rows in a stable order (by key, then commit time), as comparable text. */
const sorted = (rows: Record<string, unknown>[]) => rows.map(json).sort();
/** Data files (outside .hoodie) a read opened. */
const dataFilesRead = (reads: string[]) => new Set(reads.filter((p) => !isMetaPath(p)));

describe('listing through the metadata table', () => {
  for (const zip of FIXTURES) {
    it(`gives the storage-listed answer of every query kind on ${zip}`, async () => {
      const meta = counting(await fixtureStorage(zip));
      const byMeta = await openTable(meta.storage);
      const byStorage = await openTable(await fixtureStorage(zip), { listing: 'storage' });
      const warnings: ReadWarning[] = [];
      const onWarning = (w: ReadWarning) => warnings.push(w);
      const commits = byStorage.commits.map((c) => c.requestedTime);
      expect(commits.length).toBeGreaterThan(1);
      const cases: { asOf?: string; readOptimized?: boolean; from?: string }[] = [{}, { readOptimized: true }];
      for (const t of commits) cases.push({ asOf: t }, { from: t });
      cases.push({ from: '00000000000000000' });
      for (const c of cases) {
        const a = sorted(await collect(byMeta.rows({ ...c, onWarning })));
        const b = sorted(await collect(byStorage.rows(c)));
        expect(a, json(c)).toEqual(b);
        expect(await byMeta.fileSlices(c)).toEqual(await byStorage.fileSlices(c));
      }
      expect(sorted(await collect(byMeta.rows()))).not.toEqual([]);
      expect(warnings).toEqual([]);
      // No data partition was listed: the listing came from the MDT (only .hoodie folders were listed).
      expect(meta.lists.length).toBeGreaterThan(0);
      expect(meta.lists.filter((p) => !isMetaPath(p))).toEqual([]);
      expect(meta.lists.some((p) => p.startsWith(`${METADATA_TABLE_DIR}/files`))).toBe(true);
    });
  }

  it('lists storage when asked, per table or per query', async () => {
    const zip = FIXTURES[0] as string;
    const s = counting(await fixtureStorage(zip));
    const table = await openTable(s.storage, { listing: 'storage' });
    await collect(table.rows());
    expect(s.lists).toContain('');
    expect(s.lists.some((p) => p.startsWith(METADATA_TABLE_DIR))).toBe(false);
    const m = counting(await fixtureStorage(zip));
    const t2 = await openTable(m.storage);
    await collect(t2.rows({ listing: 'storage' }));
    expect(m.lists).toContain('');
    await expect(collect(t2.rows({ listing: 'mdt' as never }))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', context: { field: 'listing' } });
  });

  it('falls back to storage with a warning when the MDT is unreadable', async () => {
    const zip = FIXTURES[2] as string;
    const copy = await fixtureCopy(zip);
    await copy.delete(`${METADATA_TABLE_DIR}/${PROPERTIES_PATH}`);
    const warnings: ReadWarning[] = [];
    const rows = sorted(await collect((await openTable(copy)).rows({ onWarning: (w) => warnings.push(w) })));
    expect(rows).toEqual(sorted(await collect((await openTable(await fixtureStorage(zip), { listing: 'storage' })).rows())));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: 'METADATA_FALLBACK', path: `${METADATA_TABLE_DIR}/${PROPERTIES_PATH}` });
  });

  it('falls back to storage when a files-partition log is not listed (e.g. nginx hides dot-files)', async () => {
    const zip = FIXTURES[0] as string;
    const copy = await fixtureCopy(zip);
    const logs = (await copy.list(`${METADATA_TABLE_DIR}/files`)).map((f) => f.path).filter((p) => p.includes('.log.')).sort();
    expect(logs.length).toBeGreaterThan(1);
    await copy.delete(logs.at(-1) as string); // the newest write's files entries: a stale MDT would hide its file
    const warnings: ReadWarning[] = [];
    const rows = sorted(await collect((await openTable(copy)).rows({ onWarning: (w) => warnings.push(w) })));
    expect(rows).toEqual(sorted(await collect((await openTable(await fixtureStorage(zip), { listing: 'storage' })).rows())));
    expect(warnings.map((w) => w.code)).toEqual(['METADATA_FALLBACK']);
    expect(warnings[0]?.message).toContain('deltacommit');
  });
});

describe('a stale metadata table', () => {
  it('that misses the newest commit altogether is caught by the view and read from storage, with a warning', async () => {
    const zip = FIXTURES[0] as string;
    const copy = await fixtureCopy(zip);
    const newest = '20260403183846789'; // the last data commit: its MDT deltacommit and log removed, as a writer ignoring the MDT leaves it
    const mdtTimeline = `${METADATA_TABLE_DIR}/.hoodie/timeline`;
    const gone = [...(await copy.list(mdtTimeline)), ...(await copy.list(`${METADATA_TABLE_DIR}/files`))].map((f) => f.path).filter((p) => p.split('/').at(-1)?.includes(newest));
    expect(gone.length).toBeGreaterThanOrEqual(4); // requested, inflight, completed, the files log
    for (const p of gone) await copy.delete(p);
    const warnings: ReadWarning[] = [];
    const table = await openTable(copy);
    const rows = sorted(await collect(table.rows({ onWarning: (w) => warnings.push(w) })));
    expect(rows).toEqual(sorted(await collect((await openTable(await fixtureStorage(zip), { listing: 'storage' })).rows())));
    expect(warnings.map((w) => w.code)).toEqual(['METADATA_FALLBACK']);
    expect(warnings[0]?.message).toContain('does not list'); // the view's committed-file check, not the log check
    expect(warnings[0]?.message).toContain(newest);
    expect(await table.fileSlices()).toEqual(await (await openTable(await fixtureStorage(zip), { listing: 'storage' })).fileSlices());
  });
});

describe('data skipping through the metadata table', () => {
  /** Rows and data files opened for `filters` with metadata and storage listing. */
  async function both(zip: string, options: { filters: Filter[]; asOf?: string; readOptimized?: boolean }) {
    const m = counting(await fixtureStorage(zip));
    const s = counting(await fixtureStorage(zip));
    const meta = sorted(await collect((await openTable(m.storage)).rows(options)));
    const storage = sorted(await collect((await openTable(s.storage, { listing: 'storage' })).rows(options)));
    return { meta, storage, metaFiles: dataFilesRead(m.reads), storageFiles: dataFilesRead(s.reads) };
  }

  it('reads only the file group record_index names for a record-key filter', async () => {
    const zip = FIXTURES[0] as string;
    const r = await both(zip, { filters: [['txn_id', '=', 'TXN-004']] });
    expect(r.meta).toEqual(r.storage);
    expect(r.meta).toHaveLength(1);
    const file = String(JSON.parse(r.meta[0] as string)._hoodie_file_name);
    expect([...r.metaFiles].map((p) => p.split('/').at(-1))).toEqual([file]);
    expect(r.storageFiles.size).toBeGreaterThan(1);
    // Through _hoodie_record_key and IN, including a key no group holds.
    const viaMeta = await both(zip, { filters: [['_hoodie_record_key', 'IN', ['TXN-004', 'TXN-404']]] });
    expect(viaMeta.meta).toEqual(r.meta);
    expect(viaMeta.metaFiles.size).toBe(1);
    const none = await both(zip, { filters: [['txn_id', '=', 'TXN-404']] });
    expect(none.meta).toEqual([]);
    expect(none.metaFiles.size).toBe(0);
  });

  it('reads only the record-index group on a non-partitioned table too', async () => {
    const r = await both(FIXTURES[1] as string, { filters: [['txn_id', '=', 'TXN-003']] });
    expect(r.meta).toEqual(r.storage);
    expect(r.meta).toHaveLength(1);
    expect([...r.metaFiles].map((p) => p.split('/').at(-1))).toEqual([String(JSON.parse(r.meta[0] as string)._hoodie_file_name)]);
    expect(r.storageFiles.size).toBe(2);
  });

  it('does not prune time travel by the record index (a key may have lived elsewhere then)', async () => {
    const zip = FIXTURES[0] as string;
    const table = await openTable(await fixtureStorage(zip), { listing: 'storage' });
    for (const { requestedTime } of table.commits) {
      const r = await both(zip, { filters: [['txn_id', 'IN', ['TXN-001', 'TXN-004', 'TXN-009']]], asOf: requestedTime });
      expect(r.meta).toEqual(r.storage);
    }
  });

  for (const [zip, filters] of [
    [FIXTURES[0], [['txn_type', '=', 'reversal']]],
    [FIXTURES[0], [['account_id', '>', 'ACC-C']]],
    [FIXTURES[1], [['currency', '=', 'EUR']]],
    [FIXTURES[2], [['fare', '>', 60]]],
    [FIXTURES[2], [['rider', '=', 'rider-I']]],
  ] as [string, Filter[]][]) {
    it(`skips files whose column stats rule out ${json(filters)} on ${zip}, same rows`, async () => {
      const r = await both(zip, { filters });
      expect(r.meta).toEqual(r.storage);
      expect(r.meta.length).toBeGreaterThan(0);
      expect(r.metaFiles.size).toBeLessThan(r.storageFiles.size);
      for (const f of r.metaFiles) expect(r.storageFiles.has(f)).toBe(true);
      const ro = await both(zip, { filters, readOptimized: true });
      expect(ro.meta).toEqual(ro.storage);
    });
  }

  for (const [zip, filters] of [
    [FIXTURES[0], [['currency', '=', 'USD']]],
    [FIXTURES[2], [['fare', '>', 0]]],
    [FIXTURES[2], [['fare', '>', 1e9]]],
    [FIXTURES[1], [['is_international', '=', true]]],
  ] as [string, Filter[]][]) {
    it(`gives the storage rows for ${json(filters)} on ${zip} at every instant`, async () => {
      const table = await openTable(await fixtureStorage(zip), { listing: 'storage' });
      for (const asOf of [undefined, ...table.commits.map((c) => c.requestedTime)]) {
        const r = await both(zip, { filters, ...(asOf ? { asOf } : {}) });
        expect(r.meta, String(asOf)).toEqual(r.storage);
      }
    });
  }
});

describe('partition stats', () => {
  it('rule out exactly the partitions whose rows cannot match (latest snapshot only)', async () => {
    const { openMetadataTable } = await import('../../src/engine/metadata/metadata-table.js');
    const { metadataSkipping } = await import('../../src/engine/metadata/metadata-skipping.js');
    const { compileFilters } = await import('../../src/expr/filter.js');
    const zip = FIXTURES[0] as string;
    const storage = await fixtureStorage(zip);
    const table = await openTable(storage, { listing: 'storage' });
    const mdt = await openMetadataTable(storage);
    expect(mdt?.partitions).toContain('partition_stats');
    const filters = compileFilters([['txn_type', '=', 'reversal']], () => ({ kind: 'string', scale: 0 }));
    const skipping = await metadataSkipping(mdt as NonNullable<typeof mdt>, table.config, filters, true);
    // Expected from the rows: partitions of the latest snapshot without a reversal.
    const rows = await collect(table.rows({ columns: ['_hoodie_partition_path', 'txn_type'] }));
    const all = new Set((await table.fileSlices()).map((s) => s.partitionPath)); // 2024/01/15/11 holds no row after the last delete
    const withReversal = new Set(rows.filter((r) => r.txn_type === 'reversal').map((r) => String(r._hoodie_partition_path)));
    expect(withReversal.size).toBeGreaterThan(0);
    expect(withReversal.size).toBeLessThan(all.size);
    expect([...(skipping.excludedPartitions ?? [])].sort()).toEqual([...all].filter((p) => !withReversal.has(p)).sort());
    // Not for time travel or read-optimized reads (latest = false): no partition pruned, no record-index lookup.
    const past = await metadataSkipping(mdt as NonNullable<typeof mdt>, table.config, filters, false);
    expect(past.excludedPartitions).toBeUndefined();
    expect(past.fileGroups).toBeUndefined();
  });
});

describe('lakelet-written v9 tables with a metadata table', () => {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    it(`read through the MDT as through storage after inserts, upserts and deletes (${type})`, async () => {
      const { createTable, memoryStorage } = await import('../../src/index.js');
      const storage = memoryStorage();
      const table = await createTable(storage, { name: 't', type, tableVersion: 9, metadataTable: true, recordKey: 'id', orderingField: 'ts', partitionBy: ['region'] });
      const row = (i: number, ts: number, v: string) => ({ id: `k${i}`, ts, region: `r${i % 4}`, v });
      await table.upsert(Array.from({ length: 12 }, (_, i) => row(i, 1, 'a')));
      await table.upsert([row(1, 2, 'b'), row(5, 2, 'b'), row(20, 2, 'new')]);
      await table.delete(['k2', 'k6']);
      await table.upsert([row(3, 3, 'c')]);
      const config = table.config.properties.get('hoodie.table.metadata.partitions') ?? '';
      expect(config).toContain('files');
      const m = counting(storage);
      const byMeta = await openTable(m.storage);
      const byStorage = await openTable(storage, { listing: 'storage' });
      const warnings: ReadWarning[] = [];
      const cases: Record<string, unknown>[] = [{}, { readOptimized: true }, { filters: [['id', '=', 'k5']] }, { filters: [['v', '=', 'b']] }, { filters: [['id', 'IN', ['k2', 'k3']]] }];
      for (const c of byStorage.commits) cases.push({ asOf: c.requestedTime }, { from: c.requestedTime }, { asOf: c.requestedTime, filters: [['v', '=', 'a']] });
      for (const c of cases) {
        expect(sorted(await collect(byMeta.rows({ ...c, onWarning: (w) => warnings.push(w) }))), json(c)).toEqual(sorted(await collect(byStorage.rows(c))));
        const [meta, all] = [await byMeta.fileSlices(c), await byStorage.fileSlices(c)];
        if (c.filters === undefined) expect(meta).toEqual(all);
        else for (const sl of meta) expect(all).toContainEqual(sl); // the MDT's indexes may skip slices
      }
      expect(warnings).toEqual([]);
      expect(m.lists.filter((p) => !isMetaPath(p))).toEqual([]);
      // The record index narrows a key filter to the one group holding the key.
      expect(await byMeta.fileSlices({ filters: [['id', '=', 'k5']] })).toHaveLength(1);
      expect((await byStorage.fileSlices({ filters: [['id', '=', 'k5']] })).length).toBeGreaterThan(1);
      expect(sorted(await collect(byMeta.rows({ filters: [['id', '=', 'k5']] })))).toHaveLength(1);
    });
  }
});
