// Model-based test with clustering among the operations (table-model-clustering.ts): seeded sequences of writes
// and table services on copy-on-write and merge-on-read tables, v6 and v9, where `cluster()` now and then
// rewrites every file group (sorted or not, sometimes into several groups); after every operation the table is
// checked against the Map model (snapshot, time travel, incremental windows, meta columns, reopen), which a
// clustering does not change. Interleaved with compaction, clean, archival, savepoint/restore and rollback; two
// v9 sequences with the metadata table, validateTable after every step.
import { describe, expect, test } from 'vitest';
import { runSequence, seededClock, type SequenceStats } from '../helpers/table-model.js';

const OPERATIONS = 20;

describe('clustering among the operations, against a Map model', () => {
  for (const tableVersion of [6, 9] as const) {
    for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
      const base = 7000 + tableVersion * 100 + (type === 'MERGE_ON_READ' ? 50 : 0);
      const seeds = Array.from({ length: 6 }, (_, i) => base + i);
      test(`${type} v${tableVersion}: ${seeds.length} sequences × ${OPERATIONS} operations`, { timeout: 600_000 }, async () => {
        const stats: SequenceStats[] = [];
        for (const seed of seeds) {
          stats.push(await runSequence(seed, { operations: OPERATIONS, workers: 0, type, tableVersion, metadataTable: false, clock: seededClock(seed), clustering: true }));
        }
        expect(stats.reduce((n, s) => n + s.clusterings, 0), 'clusterings').toBeGreaterThan(seeds.length);
      });
    }
  }

  // v9 with the metadata table: the clustering's MDT deltacommit (files, record index moves, stats) keeps
  // validateTable clean after every step.
  for (const [type, seed] of [['COPY_ON_WRITE', 7800], ['MERGE_ON_READ', 7801]] as const) {
    test(`${type} v9 with the metadata table: seed ${seed}, validateTable after every step`, { timeout: 300_000 }, async () => {
      const s = await runSequence(seed, { operations: OPERATIONS, workers: 0, type, tableVersion: 9, metadataTable: true, validateEachStep: true, clock: seededClock(seed), clustering: true });
      expect(s.clusterings).toBeGreaterThan(0);
    });
  }

  // A v6 clustering is a replacecommit (operation CLUSTER): rollback took it for the latest data write and rolled
  // it back instead of the write (rollback-latest.ts now counts it as a table service, as v8/v9's `clustering`).
  test('regression: seed 7651 (MOR v6), a rollback after a clustering undoes the write, not the clustering', { timeout: 300_000 }, async () => {
    const s = await runSequence(7651, { operations: OPERATIONS, workers: 0, type: 'MERGE_ON_READ', tableVersion: 6, metadataTable: false, clock: seededClock(7651), clustering: true });
    expect(s.clusterings).toBeGreaterThan(0);
  });
});
