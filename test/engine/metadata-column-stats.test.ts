// Column stats through the metadata table, on the MDT fixtures: the default indexed columns equal the fixtures'
// index.json, the column_stats records Spark wrote equal what we compute from each committed base file's parquet
// footer, and the partition_stats records equal our fold of the latest slices' file stats (tight bounds).
import { describe, expect, it } from 'vitest';
import { readColumnStats } from '../../src/engine/metadata/metadata-reads.js';
import { TableState } from '../../src/engine/table-state.js';
import { readParquetFooter } from '../../src/format/parquet/read.js';
import { baseName } from '../../src/layout.js';
import { columnStatsFromParquetFooter, columnsToIndex, partitionStatsRecords } from '../../src/metadata/column-stats.js';
import type { ColumnStatsMetadata } from '../../src/metadata/column-stats-codec.js';
import { storageBuffer } from '../../src/storage/async-buffer.js';
import { fixtureStorage } from '../helpers/fixtures.js';

const FIXTURES: [string, 8 | 9, boolean][] = [
  ['sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip', 9, true],
  ['sample_table/mor/avro/v9_nonpartitioned_rollback.zip', 9, false],
  ['quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip', 8, true],
];

async function indexedColumns(zip: string): Promise<string[]> {
  const storage = await fixtureStorage(zip);
  const defs = JSON.parse(new TextDecoder().decode(await storage.read('.hoodie/.index_defs/index.json'))) as { indexDefinitions: Record<string, { sourceFields: string[] }> };
  return defs.indexDefinitions.column_stats?.sourceFields ?? [];
}

describe('column stats through the metadata table', () => {
  for (const [zip, version, partitioned] of FIXTURES) {
    it(`indexes the columns index.json lists (${zip})`, async () => {
      const state = await TableState.load(await fixtureStorage(zip));
      const schema = await state.schemaAsOf(undefined);
      expect(columnsToIndex(schema)).toEqual(await indexedColumns(zip));
    });

    it(`computes the column_stats Spark wrote from each base file's footer (${zip})`, async () => {
      const storage = await fixtureStorage(zip);
      const state = await TableState.load(storage);
      const schema = await state.schemaAsOf(undefined);
      const columns = await indexedColumns(zip);
      const byFile = new Map<string, ColumnStatsMetadata[]>();
      for (const c of columns) for (const s of (await readColumnStats(storage, c)) ?? []) byFile.set(s.fileName ?? '', [...(byFile.get(s.fileName ?? '') ?? []), s]);
      const view = await state.fileSystemView();
      const bases = view.fileGroups().flatMap((g) => g.slices).flatMap((s) => (s.baseFile ? [s.baseFile] : []));
      expect(bases.length).toBeGreaterThan(0);
      let compared = 0;
      for (const base of bases) {
        const footer = await readParquetFooter(await storageBuffer(storage, base.path), base.path);
        const ours = columnStatsFromParquetFooter(footer, { fileName: base.name, columns, schema, version });
        const theirs = byFile.get(base.name) ?? [];
        // Hudi writes no stats for a file without rows (a delete that emptied its file group).
        const rows = footer.rowGroupRows.reduce((a, b) => a + b, 0);
        expect(theirs.length, base.name).toBe(rows > 0 ? columns.length : 0);
        const sort = (x: ColumnStatsMetadata[]) => [...x].sort((a, b) => String(a.columnName).localeCompare(String(b.columnName)));
        expect(sort(ours)).toEqual(sort(theirs));
        compared++;
      }
      expect(compared).toBe(bases.length);
    });

    if (partitioned) {
      it(`folds the latest slices' file stats into the partition_stats Spark wrote (${zip})`, async () => {
        const storage = await fixtureStorage(zip);
        const state = await TableState.load(storage);
        const columns = await indexedColumns(zip);
        const fileStats = new Map<string, ColumnStatsMetadata[]>();
        for (const c of columns) for (const s of (await readColumnStats(storage, c)) ?? []) fileStats.set(s.fileName ?? '', [...(fileStats.get(s.fileName ?? '') ?? []), s]);
        const theirs = new Map<string, ColumnStatsMetadata>();
        for (const c of columns) for (const s of (await readColumnStats(storage, c, { partition: 'partition_stats' })) ?? []) theirs.set(`${s.fileName}\u0000${c}`, s);
        const slices = (await state.fileSystemView()).latestSlices();
        const partitions = [...new Set(slices.map((s) => s.partitionPath))];
        expect(partitions.length).toBeGreaterThan(1);
        let compared = 0;
        for (const p of partitions) {
          const names = slices.filter((s) => s.partitionPath === p).flatMap((s) => [...(s.baseFile ? [s.baseFile.name] : []), ...s.logFiles.map((l) => baseName(l.path))]);
          const stats = names.flatMap((n) => fileStats.get(n) ?? []);
          const records = partitionStatsRecords(p, stats);
          // A partition whose latest files hold no rows gets no new partition stats (Spark left the old ones).
          expect(records.length).toBe(stats.length === 0 ? 0 : columns.length);
          if (stats.length > 0) compared++;
          for (const r of records) expect(r.columnStatsMetadata).toEqual(theirs.get(`${p}\u0000${r.columnStatsMetadata?.columnName}`));
        }
        expect(compared).toBeGreaterThan(1);
      });
    }
  }
});
