// `lakelet catalog`: ddl prints the Hive sync statements (parsed back and checked against the table, for a
// Spark fixture and a table on disk, with --since), list / register / drop work on a directory of tables, and
// bad command lines exit 2 with one line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { createTable, nodeFsStorage, openTable, prefixedStorage } from '../../src/node/index.js';
import { checkFullSync, parseAll } from '../catalog/hive-check.js';
import { openFixture } from '../helpers/fixtures.js';
import { runCli } from './cli-helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'lakelet-catalog-'));
  dirs.push(d);
  return d;
};
const SCHEMA = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'p', type: 'string' }, { name: 'ts', type: 'long' }] };
const statementsOf = (out: string) => out.split('\n').filter(Boolean).map((l) => {
  expect(l.endsWith(';')).toBe(true);
  return l.slice(0, -1);
});

describe('lakelet catalog ddl', () => {
  test('a Spark-written MOR fixture: the statements of a first sync', async () => {
    const zip = 'quickstart_trips_table/mor/avro/v6_trips_8i1u.zip';
    const r = await runCli('catalog', 'ddl', join(inject('FIXTURES_DIR'), zip), '--database', 'lake', '--base-path', 's3a://bucket/trips');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    await checkFullSync(await openFixture(zip), statementsOf(r.out), { database: 'lake', basePath: 's3a://bucket/trips' });
  });

  test('a table on disk, then --since its last sync after a write to a new partition', async () => {
    const dir = tempDir();
    const table = await createTable(nodeFsStorage(dir), { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], schema: SCHEMA });
    const first = await table.upsert([{ id: 'a', p: 'x', ts: 1n }]);
    const full = await runCli('catalog', 'ddl', dir);
    expect(full.code).toBe(0);
    await checkFullSync(await openTable(nodeFsStorage(dir)), statementsOf(full.out), { database: 'default', basePath: `file://${dir}` });
    await table.upsert([{ id: 'b', p: 'y', ts: 1n }]);
    const inc = await runCli('catalog', 'ddl', dir, '--since', first.instant, '--base-path', 's3a://b/t');
    expect(parseAll(statementsOf(inc.out)).map((s) => (s.kind === 'add' ? s.partitions.map((p) => p.location) : s.kind))).toEqual([['s3a://b/t/p=y'], 'set-properties']);
    const none = await runCli('catalog', 'ddl', dir, '--since', (await openTable(nodeFsStorage(dir))).commits.at(-1)?.requestedTime as string);
    expect(none).toMatchObject({ code: 0, out: '' });
  });
});

describe('lakelet catalog list / register / drop', () => {
  test('a directory of tables', async () => {
    const root = tempDir();
    for (const name of ['a', 'b']) {
      const t = await createTable(prefixedStorage(nodeFsStorage(root), `tables/${name}`), { name, type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', schema: SCHEMA });
      await t.upsert([{ id: 'k', p: 'x', ts: 1n }]);
    }
    expect(await runCli('catalog', 'list', root)).toMatchObject({ code: 0, out: '(no tables in the catalog)\n' });
    expect(await runCli('catalog', 'register', root, 'tables/a')).toMatchObject({ code: 0, out: 'registered a (tables/a)\n' });
    expect(await runCli('catalog', 'register', root, 'tables/b', '--name', 'bee')).toMatchObject({ code: 0 });
    const text = await runCli('catalog', 'list', root);
    const version = `v${(await openTable(prefixedStorage(nodeFsStorage(root), 'tables/a'))).config.version}`;
    expect(text.out.split('\n').filter(Boolean).map((l) => l.split(/\s+/)).map((c) => [c[0], c[1], c[2], c[4], c[6]])).toEqual([['a', 'MERGE_ON_READ', version, '0', 'tables/a'], ['bee', 'MERGE_ON_READ', version, '0', 'tables/b']]);
    const json = JSON.parse((await runCli('catalog', 'list', root, '--json')).out) as { name: string; path: string }[];
    expect(json.map((e) => [e.name, e.path])).toEqual([['a', 'tables/a'], ['bee', 'tables/b']]);
    expect(await runCli('catalog', 'drop', root, 'bee', '--delete-files')).toMatchObject({ code: 0, out: 'dropped bee (tables/b), files deleted\n' });
    expect((await nodeFsStorage(root).list('tables/b', { recursive: true })).length).toBe(0);
    expect((await runCli('catalog', 'list', root)).out.split('\n').filter(Boolean)).toHaveLength(1);
  });

  test('bad command lines exit 2 with one line', async () => {
    for (const argv of [['catalog'], ['catalog', 'nope'], ['catalog', 'list'], ['catalog', 'list', 'a', 'b'], ['catalog', 'list', '/tmp', '--since', 'x'], ['catalog', 'drop', tempDir(), 'missing']]) {
      const r = await runCli(...argv);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/^lakelet: [^\n]+\n$/);
    }
    expect((await runCli('catalog', '--help')).out).toContain('lakelet catalog ddl <table>');
  });
});
