// Archival of the metadata table's own timeline (plan/metadata-archival-plan.ts, engine/metadata/metadata-archival.ts)
// on v9 tables lakelet creates with `metadataTable: true` and every service on (clean, inline compaction on
// MOR, data archival keeping 3–5 commits): over 64 upserts the MDT's active commits stay within the archiver's
// max, the archived MDT instants are in the MDT's LSM history, every data write has its MDT deltacommit in the
// MDT's active timeline or history, validateTable is clean after every commit, reads through the MDT equal
// reads of a storage listing and the model, and the data table's own archival goes on.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, validateTable, type ReadWarning, type Storage, type Table } from '../../src/index.js';
import type { TableConfig } from '../../src/config/table-config.js';
import { loadArchivedTimeline } from '../../src/engine/read/archived-fallback.js';
import { openMetadataTable } from '../../src/engine/metadata/metadata-table.js';
import { metadataHistoryLocation } from '../../src/engine/metadata/metadata-archival.js';
import { TableState } from '../../src/engine/table-state.js';
import { metadataArchivalLimits } from '../../src/plan/metadata-archival-plan.js';
import type { ArchivedTimeline } from '../../src/timeline/archived-timeline.js';
import { collect } from '../helpers/fixtures.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'mdtarchive',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }],
};
const WRITES = 64;
const KEEP = { keepMinCommits: 3, keepMaxCommits: 5 } as const;
const part = (k: number) => `p${k % 3}`;
/** The MDT archiver's max with these settings: min = max(3 + 1, 20 retained by the MDT cleaner − 1 + 2) = 21, max = min + (6 − 4). */
const BOUND = 23;

/** The MDT's LSM history as an archived timeline. */
async function mdtHistory(storage: Storage): Promise<ArchivedTimeline> {
  const mdt = await openMetadataTable(storage);
  const location = metadataHistoryLocation(mdt!);
  return loadArchivedTimeline(storage, { timelineLayoutVersion: 2, archivePath: location.archivePath } as TableConfig);
}

/** `part|id|v` of every row, read through `table`; warnings (a fallback to storage listing) collected. */
async function rows(table: Table, warnings: ReadWarning[]): Promise<string[]> {
  return (await collect(table.rows({ columns: ['id', 'part', 'v'], onWarning: (w) => warnings.push(w) }))).map((r) => `${String(r.part)}|${String(r.id)}|${String(r.v)}`).sort();
}

for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
  describe(`${type}, table version 9 with a metadata table`, () => {
    test(`${WRITES} upserts with every service on keep the MDT timeline bounded and its history complete`, { timeout: 600_000 }, async () => {
      const storage = memoryStorage();
      const table = await createTable(storage, {
        tableVersion: 9, metadataTable: true, name: 'mdtarchive', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA,
        bloomFilter: { numEntries: 100 }, clean: { automatic: true, retainCommits: 2 }, archive: { automatic: true, ...KEEP },
        compaction: { inline: true, deltaCommits: 3 }, heartbeatTimeoutMs: 0,
      });
      const model = new Map<string, string>();
      const dataWrites: string[] = [];
      let mdtArchivedSeen = 0;
      for (let k = 1; k <= WRITES; k++) {
        const batch = [{ id: `r${k}`, part: part(k), ts: k, v: k }];
        if (k > 1) batch.push({ id: `r${k - 1}`, part: part(k - 1), ts: k, v: 100 * k });
        const result = await table.upsert(batch);
        expect(result.warnings, `write ${k}`).toEqual([]);
        dataWrites.push(result.instant);
        for (const r of batch) model.set(r.id, `${r.part}|${r.id}|${r.v}`);
        expect(await validateTable(storage), `validate after write ${k}`).toMatchObject({ ok: true, problems: [] });

        const mdt = await openMetadataTable(storage);
        // The bound: the MDT keeps at most max commits (its cleaner's 20 retained + 2, + max − min), once its
        // first compaction (10 deltacommits, partition initialisations included) lets it archive at all.
        const commits = mdt!.timeline.completed().filter((i) => i.action === 'deltacommit' || i.action === 'commit');
        const { keepMaxCommits } = metadataArchivalLimits(mdt!.timeline, KEEP);
        expect(keepMaxCommits).toBeLessThanOrEqual(BOUND);
        expect(commits.length, `MDT commits after write ${k}`).toBeLessThanOrEqual(BOUND);
        // Every MDT instant has at most three files (requested, inflight, completed); cleans and rollbacks go with the commits.
        const services = mdt!.timeline.instants.filter((i) => i.action === 'clean' || i.action === 'rollback').length;
        expect(services, `MDT cleans and rollbacks after write ${k}`).toBeLessThanOrEqual(4);
        expect(mdt!.timeline.files.length, `MDT instant files after write ${k}`).toBeLessThanOrEqual(3 * (BOUND + 4));
        const archived = (await mdtHistory(storage)).instants.length;
        expect(archived, `the MDT history never shrinks (write ${k})`).toBeGreaterThanOrEqual(mdtArchivedSeen);
        mdtArchivedSeen = archived;

        if (k % 8 === 0 || k === WRITES) {
          const warnings: ReadWarning[] = [];
          const expected = [...model.values()].sort();
          expect(await rows(await openTable(storage), warnings), `rows through the MDT after write ${k}`).toEqual(expected);
          expect(await rows(await openTable(storage, { listing: 'storage' }), warnings), `rows from a storage listing after write ${k}`).toEqual(expected);
          expect(warnings).toEqual([]);
        }
      }

      // The MDT archived instants: the oldest deltacommits (its partition initialisations first) and compactions.
      const history = await mdtHistory(storage);
      const mdt = await openMetadataTable(storage);
      expect(history.completedWrites().length).toBeGreaterThan(WRITES / 2);
      expect(history.completedAt('00000000000000000')?.action).toBe('deltacommit');
      expect(history.completedWrites().some((i) => i.action === 'commit')).toBe(true);
      const activeTimes = new Set(mdt!.timeline.instants.map((i) => i.requestedTime));
      expect(history.instants.filter((i) => activeTimes.has(i.requestedTime))).toEqual([]);
      for (const i of history.completedWrites()) expect(i.completionTime, i.requestedTime).toBeDefined();
      const archivedDelta = history.completedWrites().find((i) => i.action === 'deltacommit' && i.requestedTime > '00000000000000010');
      expect(history.commitMetadata(archivedDelta!.requestedTime)?.operationType).toBe('UPSERT_PREPPED');
      // Every data write's MDT deltacommit is in the MDT's active timeline or its history.
      const mdtDeltas = new Set([...history.completedWrites(), ...mdt!.timeline.completed()].filter((i) => i.action === 'deltacommit').map((i) => i.requestedTime));
      expect(dataWrites.filter((t) => !mdtDeltas.has(t))).toEqual([]);
      // The MDT never archives a deltacommit of a data instant still on the data table's active timeline.
      const state = await TableState.load(storage);
      const firstData = state.timeline.instants[0]!.requestedTime;
      for (const i of history.completedWrites()) expect(i.requestedTime < firstData, i.requestedTime).toBe(true);

      // The data table's own archival still runs: its oldest writes are in its history, the rest active.
      const dataHistory = await state.archivedTimeline();
      const dataArchived = dataHistory.completedWrites().map((i) => i.requestedTime);
      expect(dataArchived.length).toBeGreaterThan(WRITES / 2);
      expect(state.timeline.completedWrites().length).toBeLessThanOrEqual(KEEP.keepMaxCommits + 2);
      expect(dataWrites.filter((t) => !dataArchived.includes(t) && !state.timeline.completedAt(t))).toEqual([]);
    });
  });
}
