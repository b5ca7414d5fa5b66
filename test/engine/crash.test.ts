// Crash tests of the write operations on the in-memory store: every storage-call index of insert, bulk
// insert, upsert (every index type; global ones move a key to another partition), delete by keys and by
// rows, both overwrites, partition deletes, a first write that stores the inferred schema in
// hoodie.properties, a schema-evolving write, and writes with inline services — under the `before`,
// `after` and `lost-ack` fault models (crash-harness.ts; the oracle is the Map model of crash-model.ts).
// Sizes: 4-6 rows in 3 partitions, 2 commits (4 for the services case), uncompressed parquet: one crash
// point (copy, crash, oracle, recovery, oracle, inventory) costs ~20-40 ms of CPU; `after`/`lost-ack` run
// only at calls that change the store. This file and crash-services.test.ts together took ~70 s of CPU.
import { describe, test } from 'vitest';
import { WRITE_CASES } from '../helpers/crash-cases.js';
import { runCrashMatrix } from '../helpers/crash-harness.js';
import { memoryKind } from '../helpers/crash-stores.js';

const MODELS = ['before', 'after', 'lost-ack'] as const;

for (const c of WRITE_CASES) {
  describe(`crash at every storage call of ${c.name}`, () => {
    test('every crash point leaves the model before or after; the truth is reported; the next write recovers', { timeout: 600_000 }, async () => {
      await runCrashMatrix(c, memoryKind(), MODELS);
    });
  });
}


