// hiveSyncStatements with `since` (the previous sync's last_commit_time_sync): after a write to a new partition,
// a partition delete and an added column, exactly REPLACE COLUMNS … cascade (with the Spark schema properties),
// ADD for the new partition, DROP for the deleted one and the new last_commit_time_sync — per Hive table.
import { describe, expect, test } from 'vitest';
import { createTable, hiveSyncStatements, memoryStorage, type Table } from '../../src/index.js';
import { openFixture } from '../helpers/fixtures.js';
import { parseAll } from './hive-check.js';
import type { ParsedStatement } from './hive-statements.js';

const V1 = { type: 'record', name: 'r', namespace: 'inc', fields: [{ name: 'id', type: 'string' }, { name: 'p', type: 'string' }, { name: 'ts', type: 'long' }] };
const V2 = { ...V1, fields: [...V1.fields, { name: 'note', type: ['null', 'string'], default: null }] };
const BASE = 's3a://bucket/inc';
const OPTIONS = { clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false } };

async function build(type: 'COPY_ON_WRITE' | 'MERGE_ON_READ'): Promise<Table> {
  const table = await createTable(memoryStorage(), { name: 'inc', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], schema: V1, ...OPTIONS });
  await table.upsert([{ id: 'a', p: 'x', ts: 1n }, { id: 'b', p: 'y', ts: 1n }]);
  return table;
}

const lastSync = (statements: readonly ParsedStatement[]) => {
  const last = statements[statements.length - 1];
  if (last?.kind !== 'set-properties') throw new Error('the sync does not end with its properties');
  return last.properties.last_commit_time_sync as string;
};

describe('an incremental sync', () => {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`${type}: a new partition, a deleted one and a new column`, async () => {
      const table = await build(type);
      const first = parseAll(await hiveSyncStatements(table, { database: 'lake', basePath: BASE }));
      const since = lastSync(first);
      expect(since).toBe(table.commits[0]?.requestedTime);

      await table.upsert([{ id: 'c', p: 'z', ts: 2n, note: 'new' }], { schema: V2 });
      await table.deletePartitions(['p=y']);
      await table.refresh();
      const statements = await hiveSyncStatements(table, { database: 'lake', basePath: BASE, since });
      const parsed = parseAll(statements);
      const names = type === 'MERGE_ON_READ' ? ['inc_ro', 'inc_rt'] : ['inc'];
      const latest = table.commits[table.commits.length - 1]?.requestedTime;
      const expected = names.flatMap((name) => [
        { kind: 'replace', table: name, cascade: true, columns: ['_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name', 'id', 'ts', 'note'] },
        { kind: 'set-properties', table: name, spark: true },
        { kind: 'add', table: name, partitions: [{ spec: { p: 'z' }, location: `${BASE}/p=z` }] },
        { kind: 'drop', table: name, partitions: [{ p: 'y' }] },
        { kind: 'set-properties', table: name, last: latest },
      ]);
      expect(parsed.map((s) => {
        switch (s.kind) {
          case 'replace': return { kind: s.kind, table: s.table, cascade: s.cascade, columns: s.columns.map((c) => c.name) };
          case 'add': return { kind: s.kind, table: s.table, partitions: s.partitions };
          case 'drop': return { kind: s.kind, table: s.table, partitions: s.partitions };
          case 'set-properties': return 'last_commit_time_sync' in s.properties ? { kind: s.kind, table: s.table, last: s.properties.last_commit_time_sync } : { kind: s.kind, table: s.table, spark: s.properties['spark.sql.sources.provider'] === 'hudi' };
          default: return s;
        }
      })).toEqual(expected);
      const replace = parsed[0];
      expect(replace?.kind === 'replace' && replace.columns.find((c) => c.name === 'note')?.type).toBe('string');
      const spark = parsed[1];
      if (spark?.kind !== 'set-properties') throw new Error('no spark properties');
      expect((JSON.parse(spark.properties['spark.sql.sources.schema.part.0'] as string) as { fields: { name: string }[] }).fields.map((f) => f.name).slice(-2)).toEqual(['note', 'p']);

      // Synced up to the latest commit: nothing more to say.
      expect(await hiveSyncStatements(table, { database: 'lake', basePath: BASE, since: lastSync(parsed) })).toEqual([]);
    });
  }

  test('no schema change: no REPLACE COLUMNS; a partition dropped and written again is neither added nor dropped', async () => {
    const table = await build('COPY_ON_WRITE');
    const since = table.commits[0]?.requestedTime as string;
    await table.deletePartitions(['p=x']);
    await table.upsert([{ id: 'a2', p: 'x', ts: 3n }, { id: 'w', p: 'w', ts: 3n }]);
    await table.refresh();
    const parsed = parseAll(await hiveSyncStatements(table, { basePath: BASE, since }));
    expect(parsed.map((s) => s.kind)).toEqual(['add', 'set-properties']);
    expect(parsed[0]?.kind === 'add' && parsed[0].partitions.map((p) => p.spec)).toEqual([{ p: 'w' }]);
  });

  test('a non-partitioned table: only REPLACE COLUMNS (no cascade) and the sync properties', async () => {
    const table = await createTable(memoryStorage(), { name: 'flat', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', schema: V1, ...OPTIONS });
    await table.upsert([{ id: 'a', p: 'x', ts: 1n }]);
    const since = table.commits[0]?.requestedTime as string;
    await table.upsert([{ id: 'b', p: 'y', ts: 2n, note: 'n' }], { schema: V2 });
    await table.refresh();
    const statements = await hiveSyncStatements(table, { basePath: BASE, since });
    const parsed = parseAll(statements);
    expect(parsed.map((s) => s.kind)).toEqual(['replace', 'set-properties', 'set-properties']);
    expect(parsed[0]?.kind === 'replace' && parsed[0].cascade).toBe(false);
    expect(statements[0]).toMatch(/REPLACE COLUMNS\(.*`note` string \)$/);
  });

  test('layout 2: a write requested before `since` but completed after `sinceCompletion` counts as new (Hudi 1.x)', async () => {
    const table = await openFixture('sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip');
    const [previous, latest] = table.commits.slice(-2);
    if (!previous?.completionTime || !latest?.completionTime) throw new Error('the fixture has no two completed writes with completion times');
    // Synced up to the latest write (by requested time): nothing new ...
    expect(await hiveSyncStatements(table, { basePath: BASE, since: latest.requestedTime, sinceCompletion: latest.completionTime })).toEqual([]);
    // ... unless the last sync saw completions only up to the previous write's: the latest completed after it.
    const parsed = parseAll(await hiveSyncStatements(table, { basePath: BASE, since: latest.requestedTime, sinceCompletion: previous.completionTime }));
    expect(parsed[parsed.length - 1]).toMatchObject({ kind: 'set-properties', properties: { last_commit_time_sync: latest.requestedTime, last_commit_completion_time_sync: latest.completionTime } });
  });

  test('`since` older than the active timeline: every partition is added again (IF NOT EXISTS), nothing dropped', async () => {
    const table = await build('COPY_ON_WRITE');
    const parsed = parseAll(await hiveSyncStatements(table, { basePath: BASE, since: '20000101000000000' }));
    const adds = parsed.filter((s) => s.kind === 'add').flatMap((s) => (s.kind === 'add' ? s.partitions.map((p) => p.spec.p) : []));
    expect(adds).toEqual(['x', 'y']);
    expect(parsed.some((s) => s.kind === 'drop' || s.kind === 'create')).toBe(false);
  });
});
