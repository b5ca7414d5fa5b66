// Reading the data table through its metadata table, on the three MDT fixtures: the `files` listing equals the
// storage listing filtered to committed files (names and sizes; hudi-rs asserts the same), the record index maps
// every key of the table to the file group the data holds it in (and no deleted key), and MDT deltacommits whose
// data instant is not completed do not count; a FileSystemView over the MDT listing gives the storage one's slices.
import { describe, expect, it } from 'vitest';
import { isPartitionMetadataPath, parentPath, baseName } from '../../src/layout.js';
import { parseBaseFileName, parseLogFileName } from '../../src/file-group/file-names.js';
import { loadTableConfig, loadTimeline, listDataFiles, TableState } from '../../src/engine/table-state.js';
import { FileSystemView } from '../../src/file-group/file-system-view.js';
import { lookupRecordIndex, metadataListingFiles, readMetadataListing } from '../../src/engine/metadata/metadata-reads.js';
import { openMetadataTable } from '../../src/engine/metadata/metadata-table.js';
import { Timeline } from '../../src/timeline/timeline.js';
import { metadataFileGroupIndex } from '../../src/metadata/keys.js';
import { metadataFileGroupId } from '../../src/metadata/metadata-partitions.js';
import { collect, fixtureCopy, fixtureStorage, openFixture } from '../helpers/fixtures.js';
import type { Storage } from '../../src/storage/storage.js';

const FIXTURES = [
  'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip',
  'sample_table/mor/avro/v9_nonpartitioned_rollback.zip',
  'quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip',
];

/** Storage's data files whose writing instant completed, as partition → name → size. */
async function committedStorageListing(storage: Storage): Promise<Record<string, Record<string, number>>> {
  const config = await loadTableConfig(storage);
  const timeline = await loadTimeline(storage, config);
  const out: Record<string, Record<string, number>> = {};
  for (const f of await listDataFiles(storage)) {
    if (f.path.startsWith('__MACOSX/') || isPartitionMetadataPath(f.path)) continue;
    const name = baseName(f.path);
    const instant = parseBaseFileName(name)?.instantTime ?? parseLogFileName(name)?.instantTime;
    if (instant === undefined || !timeline.isCompletedWrite(instant)) continue;
    (out[parentPath(f.path)] ??= {})[name] = f.size;
  }
  return out;
}

const plain = (listing: Map<string, Map<string, number>>) => Object.fromEntries([...listing].map(([p, files]) => [p, Object.fromEntries(files)]));

describe('reading through the metadata table', () => {
  for (const zip of FIXTURES) {
    it(`lists the committed files of ${zip} from the files partition`, async () => {
      const storage = await fixtureStorage(zip);
      const listing = await readMetadataListing(storage);
      expect(listing).toBeDefined();
      const expected = await committedStorageListing(storage);
      expect(Object.keys(expected).length).toBeGreaterThan(0);
      expect(plain(listing as Map<string, Map<string, number>>)).toEqual(expected);
      // As a file list: the committed data files storage lists, path for path.
      const files = metadataListingFiles(listing as Map<string, Map<string, number>>).map((f) => [f.path, f.size]);
      const stored = (await listDataFiles(storage)).filter((f) => Object.keys(expected).includes(parentPath(f.path)) && expected[parentPath(f.path)]?.[baseName(f.path)] !== undefined).map((f) => [f.path, f.size]);
      expect(files).toEqual(stored.sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)));
    });

    it(`maps every key of ${zip} to the file group holding it`, async () => {
      const storage = await fixtureStorage(zip);
      const table = await openFixture(zip);
      const rows = await collect(table.rows());
      expect(rows.length).toBeGreaterThan(0);
      const held = new Map(rows.map((r) => {
        const name = String(r._hoodie_file_name);
        return [String(r._hoodie_record_key), { partitionPath: String(r._hoodie_partition_path), fileId: parseBaseFileName(name)?.fileId ?? name }];
      }));
      const found = await lookupRecordIndex(storage, [...held.keys(), 'no-such-key']);
      expect(found).toBeDefined();
      const got = new Map([...(found as Map<string, { partitionPath: string; fileId: string }>)].map(([k, v]) => [k, { partitionPath: v.partitionPath, fileId: v.fileId }]));
      expect(got).toEqual(held);
    });
  }

  for (const zip of FIXTURES) {
    it(`gives the same latest file slices as the storage listing (${zip})`, async () => {
      const storage = await fixtureStorage(zip);
      const state = await TableState.load(storage);
      const listing = await readMetadataListing(storage, { dataConfig: state.config, dataTimeline: state.timeline });
      const fromMdt = new FileSystemView({ files: metadataListingFiles(listing as Map<string, Map<string, number>>), timeline: state.timeline, timelineLayoutVersion: state.config.timelineLayoutVersion, replaced: [] });
      const fromStorage = await state.fileSystemView();
      expect(fromMdt.latestSlices().length).toBeGreaterThan(0);
      expect(fromMdt.latestSlices()).toEqual(fromStorage.latestSlices());
    });
  }

  it('ignores MDT deltacommits whose data instant is not completed (Java rule)', async () => {
    const storage = await fixtureStorage('sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip');
    const config = await loadTableConfig(storage);
    const timeline = await loadTimeline(storage, config);
    // Pretend the last data commit never completed: its MDT deltacommit (the delete of one key and its new file) must not count.
    const last = timeline.completedWrites().at(-1);
    expect(last?.requestedTime).toBe('20260403183846789');
    const pending = new Timeline(timeline.files.filter((f) => !(f.requestedTime === last?.requestedTime && f.state === 'COMPLETED')));
    const full = await readMetadataListing(storage, { dataConfig: config, dataTimeline: timeline });
    const partial = await readMetadataListing(storage, { dataConfig: config, dataTimeline: pending });
    const newest = '73a81ee8-5d9c-420e-bab2-4626f8756100-0_0-93-281_20260403183846789.parquet';
    expect(full?.get('2024/01/15/11')?.has(newest)).toBe(true);
    expect(partial?.get('2024/01/15/11')?.has(newest)).toBe(false);
    const mdt = await openMetadataTable(storage, { dataConfig: config, dataTimeline: pending });
    expect(mdt?.isValidInstant('20260403183846789')).toBe(false);
    expect(mdt?.isValidInstant('00000000000000002')).toBe(true);
  });

  it('looks keys up only in the record-index file group each key hashes to', async () => {
    const inner = await fixtureStorage('quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip');
    const read: string[] = [];
    const storage: Storage = { ...inner, label: inner.label, readOnly: true, head: (p) => inner.head(p), list: (p, o) => inner.list(p, o), write: (p, b) => inner.write(p, b), writeIfAbsent: (p, b) => inner.writeIfAbsent(p, b), delete: (p) => inner.delete(p), read: (p, r) => { read.push(p); return inner.read(p, r); } };
    const table = await openFixture('quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip');
    const key = String((await collect(table.rows()))[0]?._hoodie_record_key);
    const group = metadataFileGroupIndex(key, 10);
    const found = await lookupRecordIndex(storage, [key]);
    expect(found?.has(key)).toBe(true);
    const mdtReads = read.filter((p) => p.startsWith('.hoodie/metadata/record_index/'));
    expect(mdtReads.length).toBeGreaterThan(0);
    for (const p of mdtReads) expect(baseName(p)).toContain(metadataFileGroupId('record_index', group));
  });

  it('refuses a damaged or foreign metadata table instead of trusting it', async () => {
    const zip = 'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip';
    const corrupt = await fixtureCopy(zip);
    const log = (await corrupt.list('.hoodie/metadata/files')).map((f) => f.path).find((p) => p.includes('20260403183842444')) as string;
    const bytes = await corrupt.read(log);
    await corrupt.write(log, bytes.subarray(0, bytes.length - 20));
    await expect(readMetadataListing(corrupt)).rejects.toMatchObject({ code: 'CORRUPT_FILE', context: { path: log } });

    const foreign = await fixtureCopy(zip);
    const props = new TextDecoder().decode(await foreign.read('.hoodie/metadata/.hoodie/hoodie.properties'));
    await foreign.write('.hoodie/metadata/.hoodie/hoodie.properties', new TextEncoder().encode(props.replace('hoodie.table.base.file.format=HFILE', 'hoodie.table.base.file.format=PARQUET')));
    await expect(readMetadataListing(foreign)).rejects.toMatchObject({ code: 'UNSUPPORTED', context: { field: 'hoodie.table.base.file.format' } });

    const missing = await fixtureCopy(zip);
    await missing.delete('.hoodie/metadata/.hoodie/hoodie.properties');
    await expect(readMetadataListing(missing)).rejects.toMatchObject({ code: 'INVALID_TABLE' });
  });

  it('returns undefined for a table without a metadata table', async () => {
    const storage = await fixtureStorage('sample_table/cow/v9_txns_simple_nometa.zip');
    expect(await readMetadataListing(storage)).toBeUndefined();
    expect(await lookupRecordIndex(storage, ['x'])).toBeUndefined();
  });
});
