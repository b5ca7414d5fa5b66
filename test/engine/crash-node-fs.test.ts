// Crash tests on nodeFsStorage (a temp folder per crash point, copied with fs.cp): a subset of the matrix —
// a copy-on-write upsert, a merge-on-read upsert through the record index, a compaction and a rollback —
// under the `before`, `after` and `torn` fault models. `torn` leaves the partial `*.lakelet-tmp-*` file a
// writer killed inside writeFile leaves; the node-fs listing hides those, so the inventory walks the folder.
// The subset keeps the file system's cost (a folder copy per crash point, real I/O) to four cases; the
// other operations differ from memory only above the adapter, which the memory matrix covers.
import { afterAll, describe, test } from 'vitest';
import { SERVICE_CASES, WRITE_CASES } from '../helpers/crash-cases.js';
import { runCrashMatrix } from '../helpers/crash-harness.js';
import { nodeFsKind } from '../helpers/crash-stores.js';

const MODELS = ['before', 'after', 'torn'] as const;
const NAMES = ['upsert (COPY_ON_WRITE, BLOOM)', 'upsert (MERGE_ON_READ, RECORD_INDEX)', 'a compaction (MERGE_ON_READ)', 'a rollback of the latest commit (COPY_ON_WRITE)'];
const kind = nodeFsKind();
afterAll(() => kind.dispose());

for (const name of NAMES) {
  const c = [...WRITE_CASES, ...SERVICE_CASES].find((x) => x.name === name);
  if (!c) throw new Error(`crash-node-fs: no case ${name}`);
  describe(`crash at every storage call of ${c.name} on node-fs`, () => {
    test('every crash point leaves the model before or after; no temp file survives the recovery', { timeout: 600_000 }, async () => {
      await runCrashMatrix(c, kind, MODELS);
    });
  });
}
