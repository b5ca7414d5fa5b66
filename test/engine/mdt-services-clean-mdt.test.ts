// The metadata table's own clean after an MDT compaction, on copies of the three MDT fixtures: KEEP_LATEST_COMMITS
// removes the slices the compaction replaced once the compaction is within the retained commits — every file of
// a group older than its new base, never a group's only slice — and nothing while too few commits exist; the
// clean's instant files and Avro plan; MDT reads unchanged and validateTable clean.
import { describe, expect, test } from 'vitest';
import { validateTable } from '../../src/index.js';
import { cleanMetadataTable } from '../../src/engine/metadata/metadata-clean.js';
import { compactMetadataTable } from '../../src/engine/metadata/metadata-compaction.js';
import { openMetadataTable } from '../../src/engine/metadata/metadata-table.js';
import { readMetadataSlice } from '../../src/engine/metadata/metadata-slice-reader.js';
import { readMetadataListing } from '../../src/engine/metadata/metadata-reads.js';
import { parseCleanerPlan, parseCleanMetadata } from '../../src/timeline/clean-metadata.js';
import type { Storage } from '../../src/storage/storage.js';
import { fixtureCopy } from '../helpers/fixtures.js';

const ZIPS = ['quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip', 'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip', 'sample_table/mor/avro/v9_nonpartitioned_rollback.zip'];
const MDT_TIMELINE = '.hoodie/metadata/.hoodie/timeline';

async function mdtRecords(s: Storage): Promise<Map<string, unknown>> {
  const mdt = await openMetadataTable(s);
  const out = new Map<string, unknown>();
  for (const p of mdt!.partitions) for (const slice of await mdt!.latestSlices(p)) out.set(`${p}/${slice.fileId}`, await readMetadataSlice(mdt!, slice));
  return out;
}
const mdtFiles = async (s: Storage) => (await s.list('.hoodie/metadata', { recursive: true })).filter((f) => f.kind === 'file' && !f.path.startsWith(`${MDT_TIMELINE}/`)).map((f) => f.path).sort();

describe('MDT clean', () => {
  test('nothing to clean with the default 20 retained commits: nothing written', async () => {
    const s = await fixtureCopy(ZIPS[1]!);
    await compactMetadataTable(s, { maxDeltaCommits: 1 });
    const before = (await s.list(MDT_TIMELINE)).length;
    expect(await cleanMetadataTable(s)).toBeUndefined();
    expect((await s.list(MDT_TIMELINE)).length).toBe(before);
  });

  for (const zip of ZIPS) {
    test(`after an MDT compaction of ${zip}, retaining 1 commit: the replaced slices go`, async () => {
      const s = await fixtureCopy(zip);
      const compaction = await compactMetadataTable(s, { maxDeltaCommits: 1 });
      const x = compaction!.instant;
      const records = await mdtRecords(s);
      const listing = await readMetadataListing(s);
      const filesBefore = await mdtFiles(s);
      const mdt = await openMetadataTable(s);
      const latest = new Set<string>();
      for (const p of mdt!.partitions) for (const sl of await mdt!.latestSlices(p)) for (const f of [sl.baseFile, ...sl.logFiles]) if (f) latest.add(f.path);

      const result = await cleanMetadataTable(s, { retainCommits: 1 });
      expect(result).toBeDefined();
      const t = result!.instant;
      expect(t > x).toBe(true);
      const timeline = (await s.list(MDT_TIMELINE)).map((f) => f.path.slice(MDT_TIMELINE.length + 1));
      expect(timeline).toContain(`${t}.clean.requested`);
      expect(timeline).toContain(`${t}.clean.inflight`);
      const done = timeline.find((n) => new RegExp(`^${t}_\\d{17}\\.clean$`).test(n))!;
      expect(done).toBeDefined();
      const plan = parseCleanerPlan(await s.read(`${MDT_TIMELINE}/${t}.clean.requested`), 'plan');
      expect(plan.policy).toBe('KEEP_LATEST_COMMITS');
      expect(plan.earliestInstantToRetain?.timestamp).toBe(x);
      const md = parseCleanMetadata(await s.read(`${MDT_TIMELINE}/${done}`), done);
      expect(md.totalFilesDeleted).toBe(result!.filesDeleted);

      const filesAfter = await mdtFiles(s);
      const gone = filesBefore.filter((f) => !filesAfter.includes(f));
      expect(gone.length).toBe(result!.filesDeleted);
      expect(gone.length).toBeGreaterThan(0);
      // Only files outside the latest slices went; every file of the latest slices stays.
      for (const f of gone) expect(latest.has(f)).toBe(false);
      for (const f of latest) expect(filesAfter).toContain(f);
      // Groups the compaction gave a base keep only that base; the files group is one slice with its base HFile.
      const after = await openMetadataTable(s);
      const filesGroup = filesAfter.filter((f) => f.startsWith('.hoodie/metadata/files/') && !f.endsWith('.hoodie_partition_metadata'));
      expect(filesGroup).toEqual([expect.stringMatching(new RegExp(`files-0000-0_\\d+-0-0_${x}\\.hfile$`))]);
      expect(await mdtRecords(s)).toEqual(records);
      expect(await readMetadataListing(s)).toEqual(listing);
      expect((await after!.latestSlices('files')).length).toBe(1);
      expect(await validateTable(s)).toMatchObject({ ok: true, problems: [] });
      // Nothing left to clean.
      expect(await cleanMetadataTable(s, { retainCommits: 1 })).toBeUndefined();
    });
  }
});
