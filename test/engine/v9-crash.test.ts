// Crash tests on table version 9 (timeline layout 2, no metadata table): every storage-call index of a MOR upsert
// (a log named after its deltacommit, the completed `<t>_<c>.deltacommit`), a compaction (`<c>_<d>.commit`) and a
// rollback (which deletes the rolled-back deltacommit's own logs), under the `before`, `after` and `lost-ack`
// fault models — the same harness and Map-model oracle as crash.test.ts, on a v9 history. (COW upserts, deletes
// and overwrites pass too; they are left out to keep the run short — add them to `pick` to run them.)
import { describe, test } from 'vitest';
import { SERVICE_CASES, WRITE_CASES } from '../helpers/crash-cases.js';
import { runCrashMatrix, standardSetup, type CrashCase } from '../helpers/crash-harness.js';
import { memoryKind } from '../helpers/crash-stores.js';

const MODELS = ['before', 'after', 'lost-ack'] as const;
const v9Setup = (type: CrashCase['type']): NonNullable<CrashCase['setup']> => async (env) => {
  await standardSetup(env, type, { tableVersion: 9, metadataTable: false });
};
const pick = (cases: CrashCase[], names: string[]): CrashCase[] => names.map((n) => {
  const c = cases.find((x) => x.name === n);
  if (!c) throw new Error(`no crash case ${n}`);
  return { ...c, name: `${c.name} on v9`, setup: v9Setup(c.type) };
});
const CASES: CrashCase[] = [
  ...pick(WRITE_CASES, ['upsert (MERGE_ON_READ, BLOOM)']),
  ...pick(SERVICE_CASES, ['a compaction (MERGE_ON_READ)']),
  {
    ...SERVICE_CASES.find((c) => c.name === 'a rollback of the latest commit (MERGE_ON_READ)')!,
    name: 'a rollback of the latest deltacommit (MERGE_ON_READ) on v9',
    setup: async (env) => {
      await standardSetup(env, 'MERGE_ON_READ', { tableVersion: 9, metadataTable: false });
      env.marks.target = env.model.latestWrite()!;
    },
  },
];

for (const c of CASES) {
  describe(`crash at every storage call of ${c.name}`, () => {
    test('every crash point leaves the model before or after; the truth is reported; the next write recovers', { timeout: 600_000 }, async () => {
      await runCrashMatrix(c, memoryKind(), MODELS);
    });
  });
}
