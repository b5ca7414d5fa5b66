// Crash tests of the table services and table-level operations on the in-memory store: compaction,
// rollback (copy-on-write and merge-on-read), savepoint, deleteSavepoint and createTable, at every
// storage-call index under the `before`, `after` and `lost-ack` fault models (crash-harness.ts).
import { describe, test } from 'vitest';
import { SERVICE_CASES } from '../helpers/crash-cases.js';
import { runCrashMatrix } from '../helpers/crash-harness.js';
import { memoryKind } from '../helpers/crash-stores.js';

const MODELS = ['before', 'after', 'lost-ack'] as const;

for (const c of SERVICE_CASES) {
  describe(`crash at every storage call of ${c.name}`, () => {
    test('every crash point leaves the model before or after; the truth is reported; the next write recovers', { timeout: 600_000 }, async () => {
      await runCrashMatrix(c, memoryKind(), MODELS);
    });
  });
}
