// Crash safety of the MDT services: a fault at every storage-call index of an MDT compaction and of a clean on
// a v9 table with a metadata table (copies of the v9 COW fixture), under the `after` and `lost-ack` models (a
// `before` fault at call i is an `after` fault at call i - 1), and of a data compaction on the v9 MOR fixture
// (after one upsert; `after` model); then the next run recovers (re-runs the interrupted compaction or clean
// from its plan). Afterwards the MDT's records and listing equal an uninterrupted run's, and validateTable is clean.
import { describe, expect, test } from 'vitest';
import { validateTable } from '../../src/index.js';
import { EngineContext } from '../../src/engine/context.js';
import { clean } from '../../src/engine/services/clean.js';
import { scheduleCompaction } from '../../src/engine/services/compaction.js';
import { runPendingCompactions } from '../../src/engine/services/compaction-run.js';
import { copyStorage } from '../helpers/storage-faults.js';
import { memoryStorage, openTable } from '../../src/index.js';
import { compactMetadataTable } from '../../src/engine/metadata/metadata-compaction.js';
import { openMetadataTable } from '../../src/engine/metadata/metadata-table.js';
import { readMetadataSlice } from '../../src/engine/metadata/metadata-slice-reader.js';
import { readMetadataListing } from '../../src/engine/metadata/metadata-reads.js';
import type { Storage } from '../../src/storage/storage.js';
import { fixtureCopy } from '../helpers/fixtures.js';
import { describeError, faultyStorage, isInjectedFault, type FaultModel } from '../helpers/storage-faults.js';

const V9_COW = 'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip';
const V9_MOR = 'sample_table/mor/avro/v9_nonpartitioned_rollback.zip';
const MODELS: FaultModel[] = ['after', 'lost-ack']; // 'before' at call i is 'after' at call i - 1

/** Every MDT partition's merged records, keyed by partition (file-group boundaries do not matter). */
async function mdtRecords(s: Storage): Promise<Map<string, unknown[]>> {
  const mdt = await openMetadataTable(s);
  const out = new Map<string, unknown[]>();
  for (const p of mdt!.partitions) out.set(p, (await Promise.all((await mdt!.latestSlices(p)).map((sl) => readMetadataSlice(mdt!, sl)))).flat());
  return out;
}

async function matrix(operation: (s: Storage) => Promise<unknown>, check: (s: Storage) => Promise<void>, setup: () => Promise<Storage> = () => fixtureCopy(V9_COW), models: readonly FaultModel[] = MODELS): Promise<number> {
  const probe = faultyStorage(await setup(), Number.POSITIVE_INFINITY);
  await operation(probe);
  const calls = probe.calls;
  expect(calls).toBeGreaterThan(5);
  for (const model of models) {
    for (let i = 1; i <= calls; i++) {
      const base = await setup();
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

  test('a data compaction (MOR) crashed at any storage call is finished by the next run, its MDT deltacommit first', { timeout: 600_000 }, async () => {
    const planned = await fixtureCopy(V9_MOR);
    const options = { heartbeatTimeoutMs: 0, workers: 0, clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false } } as const;
    const props = new TextDecoder().decode(await planned.read('.hoodie/hoodie.properties'));
    await planned.write('.hoodie/hoodie.properties', new TextEncoder().encode(`${props.trimEnd()}\nhoodie.table.timeline.timezone=UTC\n`));
    const table = await openTable(planned);
    const first: Record<string, unknown> = {};
    for await (const r of table.rows()) {
      for (const [k, v] of Object.entries(r)) if (!k.startsWith('_hoodie_')) first[k] = v;
      break;
    }
    await table.upsert([{ ...first, merchant_name: 'compacted', txn_ts: typeof first.txn_ts === 'bigint' ? first.txn_ts + 1n : (first.txn_ts as number) + 1 }], options);
    expect(await scheduleCompaction(new EngineContext(planned, options), { deltaCommits: 1, logBytes: undefined }, true, { heartbeatTimeoutMs: 0 })).toBeDefined();
    const setup = () => copyStorage(planned, (files) => memoryStorage({ files }));
    const reference = await setup();
    const ctx = new EngineContext(reference, options);
    await runPendingCompactions(ctx, ctx.options);
    const rows = async (s: Storage) => {
      const out: string[] = [];
      for await (const r of (await openTable(s)).rows()) out.push(`${String(r._hoodie_record_key)}|${String(r.merchant_name)}`);
      return out.sort();
    };
    const expectedRows = await rows(reference);
    const listing = await readMetadataListing(reference);
    const op = async (s: Storage) => {
      const run = new EngineContext(s, options);
      return runPendingCompactions(run, run.options);
    };
    await matrix(op, async (s) => {
      expect(await readMetadataListing(s)).toEqual(listing);
      expect(await rows(s)).toEqual(expectedRows);
      expect(await validateTable(s)).toMatchObject({ ok: true, problems: [] });
    }, setup, ['after']);
  });
});
