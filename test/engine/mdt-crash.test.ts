// Crash tests on v9 tables with a metadata table (issue 10, "Done when"), beside mdt-write-crash.test.ts (upserts):
// every storage-call index of a delete (MOR), a data compaction (MOR: its MDT deltacommit, then the
// commit), a rollback of the latest commit (COW and MOR: the MDT rollback, then the data rollback) and an upsert
// whose post-commit clean and archival run (COW: the clean's MDT deltacommit), under the `before`, `after` and
// `lost-ack` fault models, with the harness and Map model of crash.test.ts — the table shows the model before or
// after, the truth is reported, and the next write recovers without losing a committed row. After every recovery
// validateTable reports nothing and no MDT file lacks a completed MDT instant (crash-mdt.ts).
import { describe, expect, test } from 'vitest';
import { SERVICE_CASES, WRITE_CASES } from '../helpers/crash-cases.js';
import { input, runCrashMatrix, standardSetup, type CaseEnv, type CrashCase } from '../helpers/crash-harness.js';
import { mrow } from '../helpers/crash-model.js';
import { expectMetadataConsistent, rememberingKind } from '../helpers/crash-mdt.js';

const MODELS = ['before', 'after', 'lost-ack'] as const;
const V9_MDT = { tableVersion: 9, metadataTable: true };

const find = (cases: CrashCase[], name: string): CrashCase => {
  const c = cases.find((x) => x.name === name);
  if (!c) throw new Error(`no crash case ${name}`);
  return c;
};
/** A case on the standard history of a v9 table with a metadata table (`target`: remember the latest commit). */
const onV9Mdt = (c: CrashCase, target = false): CrashCase => ({
  ...c,
  name: `${c.name} on v9 with a metadata table`,
  setup: async (env: CaseEnv) => {
    await standardSetup(env, c.type, V9_MDT);
    if (target) env.marks.target = env.model.latestWrite()!;
  },
});

const inlineClean = find(WRITE_CASES, 'an upsert with inline clean and archival (COPY_ON_WRITE)');
const CASES: CrashCase[] = [
  // 'delete by keys (COPY_ON_WRITE)' passes too (39 s); left out to keep the file near a minute — add it here.
  onV9Mdt(find(WRITE_CASES, 'delete by keys (MERGE_ON_READ)')),
  onV9Mdt(find(SERVICE_CASES, 'a compaction (MERGE_ON_READ)')),
  onV9Mdt(find(SERVICE_CASES, 'a rollback of the latest commit (COPY_ON_WRITE)'), true),
  onV9Mdt(find(SERVICE_CASES, 'a rollback of the latest commit (MERGE_ON_READ)'), true),
  {
    ...inlineClean,
    name: `${inlineClean.name} on v9 with a metadata table`,
    setup: async (env) => {
      const table = await standardSetup(env, 'COPY_ON_WRITE', V9_MDT);
      for (const ts of [3, 4]) {
        const rows = [mrow('d', 'y', ts, ts * 10), mrow('b', 'x', ts, ts)];
        env.model.upsert(rows, (await table.upsert(rows.map(input), env.options)).instant);
      }
    },
  },
];

for (const c of CASES) {
  describe(`crash at every storage call of ${c.name}`, () => {
    test('every crash point leaves the model before or after; the next write recovers; the MDT stays consistent', { timeout: 600_000 }, async () => {
      const { kind, stores } = rememberingKind();
      const outcomes = await runCrashMatrix(c, kind, MODELS);
      expect(outcomes.some((o) => o.landed) && outcomes.some((o) => !o.landed)).toBe(true);
      expect(stores.length).toBeGreaterThan(outcomes.length);
      await expectMetadataConsistent(stores, c.name);
    });
  });
}
