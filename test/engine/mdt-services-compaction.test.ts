// The metadata table's own compaction on copies of the three MDT fixtures: when it is due and when it is
// blocked, the instant files it writes (names, empty inflight, the plan's and commit's Avro schemas equal to
// the v8 fixture's own MDT compaction), one base HFile per file group with records (schema file info, bloom
// meta block, min/max keys) holding exactly the slice's merged records, and every read through the MDT equal
// before and after; validateTable stays clean.
import { describe, expect, test } from 'vitest';
import { readAvroContainer } from '../../src/format/avro/container.js';
import { HFileReader } from '../../src/format/hfile/reader.js';
import { validateTable } from '../../src/index.js';
import { compactMetadataTable } from '../../src/engine/metadata/metadata-compaction.js';
import { openMetadataTable } from '../../src/engine/metadata/metadata-table.js';
import { readMetadataSlice } from '../../src/engine/metadata/metadata-slice-reader.js';
import { readMetadataListing } from '../../src/engine/metadata/metadata-reads.js';
import { parseCompactionPlan } from '../../src/timeline/compaction-plan.js';
import type { Storage } from '../../src/storage/storage.js';
import { fixtureCopy, fixtureStorage } from '../helpers/fixtures.js';

const V8 = 'quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip';
const V9_COW = 'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip';
const V9_MOR = 'sample_table/mor/avro/v9_nonpartitioned_rollback.zip';
const MDT_TIMELINE = '.hoodie/metadata/.hoodie/timeline';

async function timelineNames(s: Storage): Promise<string[]> {
  return (await s.list(MDT_TIMELINE)).filter((f) => f.kind === 'file').map((f) => f.path.slice(MDT_TIMELINE.length + 1)).sort();
}

/** Every MDT partition's merged records, per file group. */
async function mdtRecords(s: Storage): Promise<Map<string, unknown>> {
  const mdt = await openMetadataTable(s);
  const out = new Map<string, unknown>();
  for (const p of mdt!.partitions) for (const slice of await mdt!.latestSlices(p)) out.set(`${p}/${slice.fileId}`, await readMetadataSlice(mdt!, slice));
  return out;
}

const fixtureSchemas = async () => {
  const s = await fixtureStorage(V8);
  const plan = readAvroContainer(await s.read(`${MDT_TIMELINE}/20251220210130942.compaction.requested`), 'plan');
  const commit = readAvroContainer(await s.read(`${MDT_TIMELINE}/20251220210130942_20251220210131219.commit`), 'commit');
  return { plan: plan.schema, commit: commit.schema, commitRecord: commit.records[0] as Record<string, unknown> };
};

describe('MDT compaction', () => {
  test('is not due before maxDeltaCommits deltacommits since the last one: nothing is written', async () => {
    const s = await fixtureCopy(V8); // one MDT deltacommit after its compaction
    const before = await timelineNames(s);
    expect(await compactMetadataTable(s)).toBeUndefined();
    expect(await timelineNames(s)).toEqual(before);
  });

  test('is blocked while a data instant is pending', async () => {
    const s = await fixtureCopy(V9_COW);
    await s.write('.hoodie/timeline/29990101000000000.commit.requested', new Uint8Array(0));
    const before = await timelineNames(s);
    expect(await compactMetadataTable(s, { maxDeltaCommits: 1 })).toBeUndefined();
    expect(await timelineNames(s)).toEqual(before);
  });

  for (const zip of [V8, V9_COW, V9_MOR]) {
    test(`compacts every file group of ${zip}, reads unchanged, structure as the fixture's`, async () => {
      const s = await fixtureCopy(zip);
      const listing = await readMetadataListing(s);
      const records = await mdtRecords(s);
      const before = await timelineNames(s);
      const mdtBefore = await openMetadataTable(s);
      const groups = (await Promise.all(mdtBefore!.partitions.map((p) => mdtBefore!.latestSlices(p)))).flat();

      const result = await compactMetadataTable(s, { maxDeltaCommits: 1 });
      expect(result).toBeDefined();
      const x = result!.instant;
      expect(result!.fileGroups).toBe(groups.length);
      const added = (await timelineNames(s)).filter((n) => !before.includes(n));
      expect(added).toHaveLength(3);
      expect(added).toContain(`${x}.compaction.requested`);
      expect(added).toContain(`${x}.compaction.inflight`);
      const done = added.find((n) => n.endsWith('.commit'))!;
      expect(done).toMatch(new RegExp(`^${x}_\\d{17}\\.commit$`));
      expect(done.slice(18, 35) > x).toBe(true);
      // x is later than every time on both timelines
      const allTimes = [...before, ...(await s.list('.hoodie/timeline')).map((f) => f.path.split('/').pop()!)].flatMap((n) => n.match(/\d{17}/g) ?? []);
      for (const t of allTimes) expect(x > t).toBe(true);
      expect((await s.read(`${MDT_TIMELINE}/${x}.compaction.inflight`)).length).toBe(0);

      const fx = await fixtureSchemas();
      const planFile = readAvroContainer(await s.read(`${MDT_TIMELINE}/${x}.compaction.requested`), 'plan');
      expect(planFile.schema).toEqual(fx.plan);
      const plan = parseCompactionPlan(await s.read(`${MDT_TIMELINE}/${x}.compaction.requested`), 'plan');
      expect(plan.operations.map((o) => `${o.partitionPath}/${o.fileId}`).sort()).toEqual(groups.map((g) => `${g.partition}/${g.fileId}`).sort());
      for (const o of plan.operations) {
        const g = groups.find((x2) => x2.fileId === o.fileId)!;
        expect(o.deltaFilePaths).toEqual(g.logFiles.map((l) => l.name));
        expect(o.dataFilePath).toBe(g.baseFile?.name);
        expect(o.metrics.TOTAL_LOG_FILES).toBe(g.logFiles.length);
        expect(o.metrics.TOTAL_LOG_FILES_SIZE).toBe(g.logFiles.reduce((n, l) => n + l.size, 0));
      }
      const commit = readAvroContainer(await s.read(`${MDT_TIMELINE}/${done}`), 'commit');
      expect(commit.schema).toEqual(fx.commit);
      const c = commit.records[0] as Record<string, unknown>;
      expect(c.compacted).toBe(true);
      expect(c.operationType).toBe('COMPACT');
      // The schema without meta fields, as in the fixture's own MDT deltacommits of the same version.
      const own = (await timelineNames(s)).find((n) => /^\d{17}_\d{17}\.deltacommit$/.test(n) && !n.startsWith('000'))!;
      const ownSchema = ((readAvroContainer(await s.read(`${MDT_TIMELINE}/${own}`), 'dc').records[0] as Record<string, unknown>).extraMetadata as Record<string, string>).schema;
      expect((c.extraMetadata as Record<string, string>).schema).toBe(ownSchema);
      if (zip === V8) expect(ownSchema).toBe((fx.commitRecord.extraMetadata as Record<string, string>).schema);

      const mdt = await openMetadataTable(s);
      let bases = 0;
      for (const p of mdt!.partitions) {
        for (const slice of await mdt!.latestSlices(p)) {
          const merged = records.get(`${p}/${slice.fileId}`) as { key: string }[];
          if (slice.baseFile?.instantTime !== x) {
            expect(merged).toEqual([]); // only record-less groups keep their old slice
            continue;
          }
          bases++;
          expect(slice.logFiles).toEqual([]);
          expect(slice.baseFile.name).toMatch(new RegExp(`^${slice.fileId}_\\d+-0-0_${x}\\.hfile$`));
          const reader = await HFileReader.open(await s.read(slice.baseFile.path), { path: slice.baseFile.path });
          expect(reader.fileInfoText('schema')).toBeDefined();
          expect(await reader.bloomFilterBytes()).toBeDefined();
          expect(reader.entryCount).toBe(merged.length);
          if (merged.length > 0) {
            expect(reader.fileInfoText('minRecordKey')).toBe(merged[0]!.key);
            expect(reader.fileInfoText('maxRecordKey')).toBe(merged.at(-1)!.key);
          }
        }
      }
      expect(bases).toBe(result!.baseFilesWritten);
      expect(await mdtRecords(s)).toEqual(records);
      expect(await readMetadataListing(s)).toEqual(listing);
      expect(await validateTable(s)).toMatchObject({ ok: true, problems: [] });
      // Not due again right after.
      expect(await compactMetadataTable(s, { maxDeltaCommits: 1 })).toBeUndefined();
    });
  }
});
