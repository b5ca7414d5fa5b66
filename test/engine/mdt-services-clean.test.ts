// A data clean on a table with a metadata table: the MDT deltacommit named after the clean completes before
// it, tombstoning the deleted files in `files` and their column stats; reads through the MDT equal storage and
// validateTable stays clean. On copies of the MDT fixtures, driven through the engine's clean.
import { describe, expect, test } from 'vitest';
import { readAvroContainer } from '../../src/format/avro/container.js';
import { validateTable } from '../../src/index.js';
import { EngineContext } from '../../src/engine/context.js';
import { clean } from '../../src/engine/services/clean.js';
import { openMetadataTable } from '../../src/engine/metadata/metadata-table.js';
import { readMetadataSlice } from '../../src/engine/metadata/metadata-slice-reader.js';
import { readColumnStats, readMetadataListing } from '../../src/engine/metadata/metadata-reads.js';
import { parseCleanMetadata } from '../../src/timeline/clean-metadata.js';
import type { Storage } from '../../src/storage/storage.js';
import { fixtureCopy } from '../helpers/fixtures.js';

const V9_COW = 'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip';
const MDT_TIMELINE = '.hoodie/metadata/.hoodie/timeline';
const TIMELINE = '.hoodie/timeline';

const names = async (s: Storage, dir: string) => (await s.list(dir)).filter((f) => f.kind === 'file').map((f) => f.path.slice(dir.length + 1)).sort();

describe('clean mirrored in the MDT', () => {
  test('KEEP_LATEST_COMMITS 1 on the v9 COW fixture: MDT deltacommit first, files and column stats tombstoned', async () => {
    const s = await fixtureCopy(V9_COW);
    const before = await readMetadataListing(s);
    const mdtBefore = await names(s, MDT_TIMELINE);
    const result = await clean(new EngineContext(s), { retainCommits: 1, heartbeatTimeoutMs: 0 });
    expect(result).toBeDefined();
    expect(result!.filesDeleted).toBeGreaterThan(0);
    const t = result!.instant;
    const cleanDone = (await names(s, TIMELINE)).find((n) => n.startsWith(`${t}_`) && n.endsWith('.clean'))!;
    const md = parseCleanMetadata(await s.read(`${TIMELINE}/${cleanDone}`), cleanDone);
    const deleted = Object.values(md.partitionMetadata).flatMap((p) => p.successDeleteFiles.map((f) => [p.partitionPath, f] as const));
    expect(deleted.length).toBe(result!.filesDeleted);

    const added = (await names(s, MDT_TIMELINE)).filter((n) => !mdtBefore.includes(n));
    expect(added).toHaveLength(3);
    expect(added).toContain(`${t}.deltacommit.requested`);
    expect(added).toContain(`${t}.deltacommit.inflight`);
    const mdtDone = added.find((n) => /_\d{17}\.deltacommit$/.test(n))!;
    // The MDT deltacommit completes before the clean.
    expect(mdtDone.slice(18, 35) < cleanDone.slice(18, 35)).toBe(true);
    const dc = readAvroContainer(await s.read(`${MDT_TIMELINE}/${mdtDone}`), 'dc').records[0] as Record<string, unknown>;
    expect(dc.operationType).toBe('UPSERT_PREPPED');
    expect(Object.keys(dc.partitionToWriteStats as object).sort()).toEqual(['column_stats', 'files']);

    // files: the deleted files are gone from the listing, nothing else changed.
    const after = await readMetadataListing(s);
    const expected = new Map([...before!].map(([p, files]) => [p, new Map([...files].filter(([f]) => !deleted.some(([dp, df]) => dp === p && df === f)))]));
    expect(after).toEqual(expected);
    // column_stats: no live entry names a deleted file; its tombstone is there.
    const mdt = await openMetadataTable(s);
    const stats = (await Promise.all((await mdt!.latestSlices('column_stats')).map((sl) => readMetadataSlice(mdt!, sl)))).flat();
    for (const [, f] of deleted) {
      const forFile = stats.filter((r) => r.columnStatsMetadata?.fileName === f);
      expect(forFile.length).toBeGreaterThan(0);
      expect(forFile.every((r) => r.columnStatsMetadata!.isDeleted)).toBe(true);
    }
    const columns = [...new Set(stats.map((r) => r.columnStatsMetadata!.columnName!))];
    for (const c of columns) for (const st of (await readColumnStats(s, c)) ?? []) expect(deleted.some(([, f]) => f === st.fileName)).toBe(false);
    expect(await validateTable(s)).toMatchObject({ ok: true, problems: [] });
  });
});
