// The MDT files every file group starts with, against the fixtures: each 80-byte initialisation log
// (`.<fileId>_<init instant>.log.1_0-0-0`) rebuilt byte for byte, and the v9 fixtures' first `files` base HFile
// holding exactly our initial records (`__all_partitions__` → {} for a table created empty), and our base HFile of
// them with the same file info and bloom filter.
import { describe, expect, it } from 'vitest';
import { parseBaseFileName, parseLogFileName } from '../../src/file-group/file-names.js';
import { HFileReader } from '../../src/format/hfile/reader.js';
import { baseName } from '../../src/layout.js';
import { initialFilesRecords, metadataBaseFileBytes, metadataHFileEntries, metadataInitLogBytes } from '../../src/metadata/metadata-log-blocks.js';
import { isMetadataInitInstant } from '../../src/metadata/metadata-partitions.js';
import { fixtureStorage } from '../helpers/fixtures.js';

const FIXTURES = ['sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip', 'sample_table/mor/avro/v9_nonpartitioned_rollback.zip', 'quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip'];

describe('metadata table initial files', () => {
  for (const zip of FIXTURES) {
    it(`rebuilds every initialisation log of ${zip} byte for byte`, async () => {
      const storage = await fixtureStorage(zip);
      const logs = (await storage.list('.hoodie/metadata', { recursive: true })).filter((f) => !f.path.includes('__MACOSX') && isMetadataInitInstant(parseLogFileName(baseName(f.path))?.instantTime ?? ''));
      expect(logs.length).toBeGreaterThanOrEqual(13); // files 1, column_stats 2, record_index 10 (+ partition stats)
      for (const f of logs) {
        expect(f.size).toBe(80);
        expect(metadataInitLogBytes(parseLogFileName(baseName(f.path))?.instantTime as string)).toEqual(await storage.read(f.path));
      }
    });
  }

  for (const zip of FIXTURES.slice(0, 2)) {
    it(`holds our initial files records in the first files base HFile of ${zip}`, async () => {
      const storage = await fixtureStorage(zip);
      const base = (await storage.list('.hoodie/metadata/files')).find((f) => parseBaseFileName(baseName(f.path))?.instantTime === '00000000000000000');
      expect(base).toBeDefined();
      const entries = [];
      for await (const e of (await HFileReader.open(await storage.read(base?.path as string))).entries()) entries.push({ key: e.key, value: e.value });
      expect(entries).toEqual(metadataHFileEntries(initialFilesRecords(), 9));
      // Our base HFile of those records: the same file info, entries and bloom filter bytes.
      const spark = await HFileReader.open(await storage.read(base?.path as string));
      const created = spark.fileInfo.get('hfile.CREATE_TIME_TS') as Uint8Array;
      const createTime = Number(new DataView(created.buffer, created.byteOffset, created.byteLength).getBigInt64(0));
      const ours = await HFileReader.open(metadataBaseFileBytes(initialFilesRecords(), 9, { createTime }));
      expect([...ours.fileInfo.keys()]).toEqual([...spark.fileInfo.keys()]);
      for (const k of ours.fileInfo.keys()) expect([...(ours.fileInfo.get(k) ?? [])], k).toEqual([...(spark.fileInfo.get(k) ?? [])]);
      expect([...((await ours.bloomFilterBytes()) ?? [])]).toEqual([...((await spark.bloomFilterBytes()) ?? [])]);
    });
  }
});
