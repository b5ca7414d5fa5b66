// Model-based test of v9 tables with the metadata table on (issue 10, "Done when"): seeded sequences of every
// operation the Map model knows — upserts, inserts, deletes, insert overwrites (partitions and table), rollback,
// compaction (MOR), clean, archival into the LSM history, savepoint and restore — on copy-on-write and
// merge-on-read tables created with `metadataTable: true`, each read compared with the model as in
// model-based.test.ts, and validateTable asserted clean after every step (the MDT `files` equal to storage, the
// record index to the data, the stats to the footers, the MDT's structure). Seeded clocks: a failure reproduces
// from its seed (LAKELET_MODEL_TRACE=1 prints each step's draw).
// The data table's services run with their MDT side (clean, compaction, rollback, restore each write their MDT
// instant; archival is bounded by the MDT timeline), as the library ships them (METADATA_MAINTAINED_OPERATIONS).
// The MDT holds all four partitions Hudi builds by default: files, record_index, and column_stats and
// partition_stats over the schema's string, long and double columns (validateTable checks them against footers).
import { describe, expect, test } from 'vitest';
import { runSequence, seededClock, type SequenceStats } from '../helpers/table-model.js';

// 15 sequences × 25 operations (about 75 s on a 2-core machine): seeds chosen so that each table type sees a
// clean, an archival, a restore and an MDT compaction, and some rollback or restore is refused by one.
const OPERATIONS = 25;
const SEEDS = {
  COPY_ON_WRITE: [9601, 9603, 9604, 9605, 9608, 9609, 9610],
  MERGE_ON_READ: [9700, 9701, 9702, 9703, 9704, 9705, 9706, 9707],
} as const;

describe('v9 tables with the metadata table against a Map model, validateTable after every step', () => {
  const all: SequenceStats[] = [];
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`${type}: ${SEEDS[type].length} sequences × ${OPERATIONS} operations`, { timeout: 600_000 }, async () => {
      for (const seed of SEEDS[type]) {
        const s = await runSequence(seed, { operations: OPERATIONS, workers: 0, tableVersion: 9, metadataTable: true, validateEachStep: true, type, clock: seededClock(seed) });
        expect(s.type).toBe(type);
        all.push(s);
      }
    });
  }

  test('the sequences exercised every service and the MDT compaction', () => {
    expect(all.length, 'both groups ran first').toBe(SEEDS.COPY_ON_WRITE.length + SEEDS.MERGE_ON_READ.length);
    const some = (k: keyof SequenceStats, type?: string) => all.filter((s) => (type === undefined || s.type === type) && (s[k] as number) > 0).length;
    for (const s of all) expect(s.metadataPartitions).toEqual(['column_stats', 'files', 'partition_stats', 'record_index']);
    expect(some('compactions', 'MERGE_ON_READ'), 'MOR sequences with a compaction').toBeGreaterThan(0);
    for (const k of ['cleans', 'archived', 'restores', 'metadataCompactions'] as const) {
      for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ']) expect(some(k, type), `${type} sequences with ${k}`).toBeGreaterThan(0);
    }
    expect(some('refusedByMetadataCompaction'), 'sequences where an MDT compaction refused a rollback or restore').toBeGreaterThan(0);
  });
});
