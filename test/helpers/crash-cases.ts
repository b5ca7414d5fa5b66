// The crash cases: each operation with the history it runs on, what makes it visible, and what it does to
// the Map model. Shared by the memory, node-fs and default-timeout crash tests.
import { createTable, type IndexType, type TableType } from '../../src/index.js';
import { mrow } from './crash-model.js';
import { CRASH_SCHEMA, EVOLVED_SCHEMA, input, standardSetup, type CrashCase } from './crash-harness.js';

/** An update of a, a move of c from y to z (a new record for non-global indexes), an insert of f. */
const UPSERT = [mrow('a', 'x', 2, 10), mrow('c', 'z', 2, 30), mrow('f', 'y', 1, 60)];
const INSERT = [mrow('g', 'x', 1, 70), mrow('h', 'z', 1, 80)];
const BULK = [mrow('i', 'y', 1, 90), mrow('j', 'x', 1, 91), mrow('k', 'x', 1, 92)];

const upsertCase = (type: TableType, index: IndexType): CrashCase => ({
  name: `upsert (${type}, ${index})`, type, index, effect: 'write',
  act: async (open, env) => (await open()).upsert(UPSERT.map(input), env.options),
  apply: (m, t) => m.upsert(UPSERT, t),
});

/** The write operations. */
export const WRITE_CASES: CrashCase[] = [
  ...(['BLOOM', 'GLOBAL_BLOOM', 'SIMPLE', 'GLOBAL_SIMPLE', 'IN_MEMORY', 'RECORD_INDEX'] as const).map((i) => upsertCase('COPY_ON_WRITE', i)),
  ...(['BLOOM', 'GLOBAL_SIMPLE', 'RECORD_INDEX'] as const).map((i) => upsertCase('MERGE_ON_READ', i)),
  ...(['COPY_ON_WRITE', 'MERGE_ON_READ'] as const).flatMap((type): CrashCase[] => [
    { name: `insert (${type})`, type, effect: 'write', act: async (open, env) => (await open()).insert(INSERT.map(input), env.options), apply: (m, t) => m.insert(INSERT, t) },
    { name: `delete by keys (${type})`, type, effect: 'write', act: async (open, env) => (await open()).delete(['a', 'd'], env.options), apply: (m, t) => m.deleteIds(['a', 'd'], t) },
  ]),
  { name: 'bulk insert (COPY_ON_WRITE)', type: 'COPY_ON_WRITE', effect: 'write', act: async (open, env) => (await open()).bulkInsert(BULK.map(input), env.options), apply: (m, t) => m.insert(BULK, t) },
  {
    name: 'delete by rows (MERGE_ON_READ, GLOBAL_BLOOM)', type: 'MERGE_ON_READ', index: 'GLOBAL_BLOOM', effect: 'write',
    act: async (open, env) => (await open()).delete([{ id: 'b', part: 'x', ts: 5n, v: null }, { id: 'e', part: 'z', ts: 5n, v: null }], env.options),
    apply: (m, t) => m.deleteRows([{ id: 'b', part: 'x' }, { id: 'e', part: 'z' }], t),
  },
  {
    name: 'insert overwrite of partition x (COPY_ON_WRITE)', type: 'COPY_ON_WRITE', effect: 'write',
    act: async (open, env) => (await open()).insertOverwrite([input(mrow('o', 'x', 1, 5))], { ...env.options, partitions: ['part=x'] }),
    apply: (m, t) => m.overwrite([mrow('o', 'x', 1, 5)], ['x'], t),
  },
  {
    name: 'insert overwrite table (MERGE_ON_READ)', type: 'MERGE_ON_READ', effect: 'write',
    act: async (open, env) => (await open()).insertOverwriteTable([input(mrow('p', 'y', 1, 6)), input(mrow('q', 'z', 1, 7))], env.options),
    apply: (m, t) => m.overwrite([mrow('p', 'y', 1, 6), mrow('q', 'z', 1, 7)], 'table', t),
  },
  {
    name: 'delete partitions y (COPY_ON_WRITE)', type: 'COPY_ON_WRITE', effect: 'write',
    act: async (open, env) => (await open()).deletePartitions(['part=y'], env.options),
    apply: (m, t) => m.deletePartitions(['y'], t),
  },
  {
    name: 'a first write that stores the inferred schema in hoodie.properties (COPY_ON_WRITE)', type: 'COPY_ON_WRITE', effect: 'write',
    setup: async (env) => {
      await createTable(env.storage, { name: 'crash', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], ...env.options });
    },
    act: async (open, env) => (await open()).upsert(UPSERT.map(input), env.options),
    apply: (m, t) => m.upsert(UPSERT, t),
  },
  {
    name: 'a schema-evolving write adding a column (MERGE_ON_READ)', type: 'MERGE_ON_READ', effect: 'write',
    act: async (open, env) => (await open()).upsert([input(mrow('a', 'x', 3, 11, 'w1')), input(mrow('n', 'y', 1, 12, 'w2'))], { ...env.options, schema: EVOLVED_SCHEMA }),
    apply: (m, t) => m.upsert([mrow('a', 'x', 3, 11, 'w1'), mrow('n', 'y', 1, 12, 'w2')], t),
  },
  {
    // Clean keeps 1 commit and archival 2-3: both act on the 4-commit history.
    name: 'an upsert with inline clean and archival (COPY_ON_WRITE)', type: 'COPY_ON_WRITE', effect: 'write', readableCommits: 1,
    options: { clean: { automatic: true, retainCommits: 1 }, archive: { automatic: true, keepMinCommits: 2, keepMaxCommits: 3 } },
    setup: async (env) => {
      const table = await standardSetup(env, 'COPY_ON_WRITE');
      for (const ts of [3, 4]) {
        const rows = [mrow('d', 'y', ts, ts * 10), mrow('b', 'x', ts, ts)];
        env.model.upsert(rows, (await table.upsert(rows.map(input), env.options)).instant);
      }
    },
    act: async (open, env) => (await open()).upsert(UPSERT.map(input), env.options),
    apply: (m, t) => m.upsert(UPSERT, t),
  },
  {
    name: 'an upsert with inline compaction (MERGE_ON_READ)', type: 'MERGE_ON_READ', effect: 'write',
    options: { compaction: { inline: true, deltaCommits: 2 } },
    act: async (open, env) => (await open()).upsert(UPSERT.map(input), env.options),
    apply: (m, t) => m.upsert(UPSERT, t),
  },
];

/** The standard history, remembering its latest commit as the operation's target. */
const targetLatest = (type: 'COPY_ON_WRITE' | 'MERGE_ON_READ') => async (env: Parameters<NonNullable<CrashCase['setup']>>[0]) => {
  await standardSetup(env, type);
  env.marks.target = env.model.latestWrite()!;
};

/** Table services and table-level operations. */
export const SERVICE_CASES: CrashCase[] = [
  {
    name: 'a compaction (MERGE_ON_READ)', type: 'MERGE_ON_READ', effect: 'compaction',
    act: async (open, env) => (await open()).compact(env.options),
    apply: (m, t) => m.compaction(t),
  },
  ...(['COPY_ON_WRITE', 'MERGE_ON_READ'] as const).map((type): CrashCase => ({
    name: `a rollback of the latest commit (${type})`, type, effect: 'rollback', setup: targetLatest(type),
    act: async (open) => (await open()).rollback(),
    apply: (m) => void m.rollbackLatest(),
  })),
  {
    name: 'a savepoint (COPY_ON_WRITE)', type: 'COPY_ON_WRITE', effect: 'savepoint', setup: targetLatest('COPY_ON_WRITE'),
    act: async (open) => (await open()).savepoint(),
    apply: () => undefined,
  },
  {
    name: 'a deleteSavepoint (MERGE_ON_READ)', type: 'MERGE_ON_READ', effect: 'deleteSavepoint',
    setup: async (env) => {
      const table = await standardSetup(env, 'MERGE_ON_READ');
      env.marks.target = (await table.savepoint({ instant: env.model.history[0]!.instant })).instant;
    },
    act: async (open, env) => (await open()).deleteSavepoint(env.marks.target!),
    apply: () => undefined,
  },
  {
    name: 'createTable (COPY_ON_WRITE)', type: 'COPY_ON_WRITE', effect: 'create',
    setup: async () => undefined,
    act: (_open, env, storage) => createTable(storage, { name: 'crash', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: CRASH_SCHEMA, ...env.options }),
    apply: () => undefined,
  },
];

