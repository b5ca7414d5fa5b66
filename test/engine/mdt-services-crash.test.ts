// Crash safety of the MDT services: a fault at every storage-call index of an MDT compaction and of a clean on
// a v9 table with a metadata table (copies of the v9 COW fixture), under the `after` and `lost-ack` models (a
// `before` fault at call i is an `after` fault at call i - 1); then the next run recovers (re-runs the interrupted compaction or clean from its plan). Afterwards the
// MDT's merged records and listing equal those of an uninterrupted run, and validateTable is clean.
import { describe, expect, test } from 'vitest';
import { validateTable } from '../../src/index.js';
import { EngineContext } from '../../src/engine/context.js';
import { clean } from '../../src/engine/services/clean.js';
import { compactMetadataTable } from '../../src/engine/metadata/metadata-compaction.js';
import { openMetadataTable } from '../../src/engine/metadata/metadata-table.js';
import { readMetadataSlice } from '../../src/engine/metadata/metadata-slice-reader.js';
import { readMetadataListing } from '../../src/engine/metadata/metadata-reads.js';
import type { Storage } from '../../src/storage/storage.js';
import { fixtureCopy } from '../helpers/fixtures.js';
import { describeError, faultyStorage, isInjectedFault, type FaultModel } from '../helpers/storage-faults.js';

const V9_COW = 'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip';
const MODELS: FaultModel[] = ['after', 'lost-ack']; // 'before' at call i is 'after' at call i - 1

/** Every MDT partition's merged records, keyed by partition (file-group boundaries do not matter). */
async function mdtRecords(s: Storage): Promise<Map<string, unknown[]>> {
  const mdt = await openMetadataTable(s);
  const out = new Map<string, unknown[]>();
  for (const p of mdt!.partitions) out.set(p, (await Promise.all((await mdt!.latestSlices(p)).map((sl) => readMetadataSlice(mdt!, sl)))).flat());
  return out;
}

async function matrix(operation: (s: Storage) => Promise<unknown>, check: (s: Storage) => Promise<void>): Promise<number> {
  const probe = faultyStorage(await fixtureCopy(V9_COW), Number.POSITIVE_INFINITY);
  await operation(probe);
  const calls = probe.calls;
  expect(calls).toBeGreaterThan(5);
  for (const model of MODELS) {
    for (let i = 1; i <= calls; i++) {
      const base = await fixtureCopy(V9_COW);
      const faulty = faultyStorage(base, i, model);
      try {
        await operation(faulty);
      } catch (err) {
        if (!isInjectedFault(err, faulty)) throw new Error(`${model} at call ${i}: not the injected fault: ${describeError(err)}`);
      }
      await operation(base); // the next run recovers
      try {
        await check(base);
      } catch (err) {
        throw new Error(`${model} at call ${i} (${faulty.failedCall?.method} ${faulty.failedCall?.path}): ${describeError(err)}`);
      }
    }
  }
  return calls;
}

describe('MDT services under crashes', () => {
  test('an MDT compaction crashed at any storage call is finished by the next run', { timeout: 600_000 }, async () => {
    const reference = await fixtureCopy(V9_COW);
    const records = await mdtRecords(reference);
    const listing = await readMetadataListing(reference);
    const op = (s: Storage) => compactMetadataTable(s, { maxDeltaCommits: 1, heartbeatTimeoutMs: 0 });
    await matrix(op, async (s) => {
      const mdt = await openMetadataTable(s);
      expect(mdt!.timeline.pending()).toEqual([]);
      expect(mdt!.timeline.completed().filter((i) => i.action === 'commit')).toHaveLength(1);
      expect(await mdtRecords(s)).toEqual(records);
      expect(await readMetadataListing(s)).toEqual(listing);
      expect(await validateTable(s)).toMatchObject({ ok: true, problems: [] });
    });
  });

  test('a clean crashed at any storage call is finished by the next run, MDT in step', { timeout: 600_000 }, async () => {
    const reference = await fixtureCopy(V9_COW);
    await clean(new EngineContext(reference), { retainCommits: 1, heartbeatTimeoutMs: 0 });
    const listing = await readMetadataListing(reference);
    const op = (s: Storage) => clean(new EngineContext(s), { retainCommits: 1, heartbeatTimeoutMs: 0 });
    await matrix(op, async (s) => {
      expect(await readMetadataListing(s)).toEqual(listing);
      expect(await validateTable(s)).toMatchObject({ ok: true, problems: [] });
    });
  });
});
