// Crash safety of the metadata table's timeline archival (engine/metadata/metadata-archival.ts): on a v9 COW table
// with a metadata table after 24 upserts (clean and MDT services on) and a data-table archival down to 3 commits,
// an MDT archival keeping 4–6 MDT commits fails at every storage-call index (`after` and `lost-ack` models). Right after the crash the
// table reads the same — rows through the MDT, the MDT's records and its `files` listing — and validateTable is
// clean; the next archival goes on (no MDT instant lost, none archived that an uninterrupted run keeps), and the
// next write (after every fourth crash point) commits with validate clean.
import { describe, expect, test } from 'vitest';
import { EngineContext } from '../../src/engine/context.js';
import { archive } from '../../src/engine/services/archival.js';
import { createTable, memoryStorage, openTable, validateTable, type Storage } from '../../src/index.js';
import type { TableConfig } from '../../src/config/table-config.js';
import { archiveMetadataTable, metadataHistoryLocation } from '../../src/engine/metadata/metadata-archival.js';
import { openMetadataTable } from '../../src/engine/metadata/metadata-table.js';
import { readMetadataSlice } from '../../src/engine/metadata/metadata-slice-reader.js';
import { readMetadataListing } from '../../src/engine/metadata/metadata-reads.js';
import { loadArchivedTimeline } from '../../src/engine/read/archived-fallback.js';
import { COMMIT_LOCK_PATH } from '../../src/layout.js';
import { collect } from '../helpers/fixtures.js';
import { copyStorage, describeError, faultyStorage, isInjectedFault, type FaultModel } from '../helpers/storage-faults.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'mdtcrash',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }],
};
const KEEP = { keepMinCommits: 3, keepMaxCommits: 5 } as const;
/** Writes archive nothing of the data table and keep 21–31 MDT commits (the data table's first commit bounds the MDT's archival). */
const WRITE_OPTIONS = { clean: { automatic: true, retainCommits: 2 }, archive: { automatic: false, keepMinCommits: 20, keepMaxCommits: 30 }, heartbeatTimeoutMs: 0 } as const;
/** The archival under test: the MDT keeps 4–6 commits. */
const ARCHIVE = KEEP;
const MODELS: FaultModel[] = ['after', 'lost-ack'];
const part = (k: number) => `p${k % 3}`;
const WRITES = 14;

async function build(): Promise<{ storage: Storage; model: Map<string, string> }> {
  const storage = memoryStorage();
  const table = await createTable(storage, {
    tableVersion: 9, metadataTable: true, name: 'mdtcrash', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA,
    bloomFilter: { numEntries: 100 }, ...WRITE_OPTIONS,
  });
  const model = new Map<string, string>();
  for (let k = 1; k <= WRITES; k++) {
    const batch = [{ id: `r${k}`, part: part(k), ts: k, v: k }];
    if (k > 1) batch.push({ id: `r${k - 1}`, part: part(k - 1), ts: k, v: 100 * k });
    expect((await table.upsert(batch)).warnings).toEqual([]);
    for (const r of batch) model.set(r.id, `${r.part}|${r.id}|${r.v}`);
  }
  // The data table archived down to 3 commits: the MDT may then archive the deltacommits of its archived writes.
  expect((await archive(new EngineContext(storage), KEEP)).length).toBeGreaterThan(5);
  return { storage, model };
}

const rows = async (s: Storage) => (await collect((await openTable(s)).rows({ columns: ['id', 'part', 'v'] }))).map((r) => `${String(r.part)}|${String(r.id)}|${String(r.v)}`).sort();
const mdtNames = async (s: Storage) => (await openMetadataTable(s))!.timeline.files.map((f) => f.fileName).sort();
async function mdtHistoryTimes(s: Storage): Promise<Set<string>> {
  const location = metadataHistoryLocation((await openMetadataTable(s))!);
  return new Set((await loadArchivedTimeline(s, { timelineLayoutVersion: 2, archivePath: location.archivePath } as TableConfig)).instants.map((i) => `${i.requestedTime}.${i.action}`));
}
async function mdtRecords(s: Storage): Promise<Map<string, unknown[]>> {
  const mdt = await openMetadataTable(s);
  const out = new Map<string, unknown[]>();
  for (const p of mdt!.partitions) out.set(p, (await Promise.all((await mdt!.latestSlices(p)).map((sl) => readMetadataSlice(mdt!, sl)))).flat());
  return out;
}

describe('MDT timeline archival under crashes', () => {
  test('an MDT archival crashed at any storage call leaves the table readable; the next run and write recover', { timeout: 900_000 }, async () => {
    const { storage: built, model } = await build();
    const setup = () => copyStorage(built, (files) => memoryStorage({ files }));
    const expectedRows = [...model.values()].sort();
    const records = await mdtRecords(built);
    const listing = await readMetadataListing(built);

    const reference = await setup();
    const archived = await archiveMetadataTable(reference, ARCHIVE);
    expect(archived.length).toBeGreaterThan(3);
    expect(archived.some((i) => i.action === 'deltacommit' && !i.requestedTime.startsWith('0000'))).toBe(true);
    expect(await mdtRecords(reference)).toEqual(records);
    const referenceNames = await mdtNames(reference);
    const referenceHistory = await mdtHistoryTimes(reference);
    const probe = faultyStorage(await setup(), Number.POSITIVE_INFINITY);
    await archiveMetadataTable(probe, ARCHIVE);
    const calls = probe.calls;
    expect(calls).toBeGreaterThan(10);

    for (const model of MODELS) {
      for (let i = 1; i <= calls; i++) {
        const base = await setup();
        const faulty = faultyStorage(base, i, model);
        const at = () => `${model} at call ${i} (${faulty.failedCall?.method} ${faulty.failedCall?.path})`;
        try {
          await archiveMetadataTable(faulty, ARCHIVE);
          // Only the commit lock's release swallows a fault (the archival itself is done by then).
          expect(faulty.failedCall?.path ?? '', at()).toMatch(/lakelet-commit/);
        } catch (err) {
          if (!isInjectedFault(err, faulty)) throw new Error(`${at()}: not the injected fault: ${describeError(err)}`);
        }
        // The crashed archiver's commit lock would expire after 15 s; the next run should not wait for it here.
        await base.delete(COMMIT_LOCK_PATH);
        try {
          // Right after the crash: the same table.
          expect(await rows(base)).toEqual(expectedRows);
          expect(await mdtRecords(base)).toEqual(records);
          expect(await readMetadataListing(base)).toEqual(listing);
          expect(await validateTable(base)).toMatchObject({ ok: true, problems: [] });
          // The next archival goes on from where the crashed one stopped: no instant lost, none archived that the
          // uninterrupted run kept (a crash late in the deletions can leave the timeline between min and max, where
          // the archiver waits — Hudi's rule).
          await archiveMetadataTable(base, ARCHIVE);
          const names = await mdtNames(base);
          expect(referenceNames.filter((n) => !names.includes(n))).toEqual([]);
          const history = await mdtHistoryTimes(base);
          const active = new Set((await openMetadataTable(base))!.timeline.instants.map((x) => `${x.requestedTime}.${x.action}`));
          expect([...referenceHistory].filter((t) => !history.has(t) && !active.has(t))).toEqual([]);
          expect([...history].filter((t) => !referenceHistory.has(t))).toEqual([]);
          expect(await mdtRecords(base)).toEqual(records);
          if (i % 4 !== 0 && i !== calls) continue;
          // And the next write commits, its MDT services included.
          const table = await openTable(base);
          expect((await table.upsert([{ id: 'r1', part: part(1), ts: 1000, v: -1 }], WRITE_OPTIONS)).warnings).toEqual([]);
          expect(await rows(base)).toEqual(expectedRows.map((r) => (r.startsWith(`${part(1)}|r1|`) ? `${part(1)}|r1|-1` : r)));
          expect(await validateTable(base)).toMatchObject({ ok: true, problems: [] });
        } catch (err) {
          throw new Error(`${at()}: ${describeError(err)}`);
        }
      }
    }
  });
});
