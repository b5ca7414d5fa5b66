// The CLI's write commands in-process: create, upsert/insert/bulk-insert/delete from JSON lines, CSV and
// parquet, read back through `lakelet query`; progress on stderr; bad input leaves the table unchanged.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/node/cli.js';
import { JsonNumber, parseCsv as parseCsvInput, parseJson, parseJsonLines } from '../../src/node/cli-input.js';
import { progressReporter } from '../../src/node/cli-progress.js';
import { splitKeys } from '../../src/node/cli-write.js';
import { parseRecordSchema } from '../../src/format/schema.js';
import { fixtureStorage } from '../helpers/fixtures.js';
import { ensureDistBuilt, jsonLines, parseCsv, runBin, runCli } from './cli-helpers.js';

const V6_ZIP = 'sample_table/cow/v6_nonpartitioned.zip';

const scratch = mkdtempSync(join(tmpdir(), 'lakelet-cli-write-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;
/** A fresh path under the scratch folder. */
const fresh = (name: string) => join(scratch, `${name}-${++counter}`);
/** Write a text file under the scratch folder and return its path. */
function file(name: string, text: string): string {
  const p = join(scratch, `${++counter}-${name}`);
  writeFileSync(p, text);
  return p;
}

/** Every file under `dir` with its size and mtime: a failed write must leave this unchanged. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(`${relative(dir, p)} ${statSync(p).size} ${statSync(p).mtimeMs}`);
    }
  };
  walk(dir);
  return out.sort();
}

/** Rows of `lakelet query <dir>` without meta columns, sorted by `key`. */
async function queryRows(dir: string, key = 'id', ...extra: string[]): Promise<Record<string, unknown>[]> {
  const r = await runCli('query', dir, ...extra);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return jsonLines(r.out)
    .map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('_hoodie_'))))
    .sort((a, b) => String(a[key]).localeCompare(String(b[key]), 'en', { numeric: true }));
}

async function createTrips(extra: string[] = []): Promise<string> {
  const dir = fresh('trips');
  const r = await runCli('create', dir, '--name', 'trips', '--type', 'cow', '--record-key', 'id', '--ordering-field', 'ts', '--partition-by', 'city', ...extra);
  expect(r).toMatchObject({ code: 0, err: '' });
  return dir;
}

const TRIPS = [
  '{"id": 1, "name": "a", "ts": 10, "city": "sf", "big": 9007199254740993, "fare": 1.5}',
  '{"id": 2, "name": "b", "ts": 10, "city": "nyc", "big": -1, "fare": 2.25}',
  '',
  '{"id": 3, "name": "c", "ts": 10, "city": "sf", "big": 2, "fare": 3}',
].join('\n');

describe('help', () => {
  test('the usage lists the write commands; each command has its help', async () => {
    const top = await runCli('--help');
    expect(top.code).toBe(0);
    for (const c of ['lakelet create <dir>', 'lakelet upsert|insert|bulk-insert <dir> --input <file>', 'lakelet delete <dir>']) expect(top.out).toContain(c);
    const create = await runCli('create', '--help');
    for (const o of ['--name', '--type', '--record-key', '--ordering-field', '--partition-by', '--no-hive-style', '--key-generator', '--schema']) expect(create.out).toContain(o);
    const del = await runCli('delete', '-h');
    expect(del.out).toContain('--keys');
    expect((await runCli('upsert', '--help')).out).not.toContain('--keys');
    expect((await runCli('help', 'bulk-insert')).out).toMatch(/^Usage: lakelet bulk-insert <dir> --input <file>/);
  });
});

describe('create', () => {
  test('makes the directory and a table that inspect reads; a second create fails with exit 2', async () => {
    const dir = join(fresh('nested'), 'a', 'b');
    const r = await runCli('create', dir, '--name', 'people', '--type', 'MERGE_ON_READ', '--record-key', 'org,id', '--partition-by', 'country', '--no-hive-style', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ name: 'people', tableType: 'MERGE_ON_READ', version: 6, recordKeyFields: ['org', 'id'], partitionFields: ['country'], hiveStylePartitioning: false, keyGeneratorType: 'COMPLEX' });
    const inspect = await runCli('inspect', dir, '--json');
    expect(JSON.parse(inspect.out).config).toMatchObject({ name: 'people', tableType: 'MERGE_ON_READ', recordKeyFields: ['org', 'id'] });
    const before = listing(dir);
    const again = await runCli('create', dir, '--name', 'other', '--type', 'cow', '--record-key', 'id');
    expect(again.code).toBe(2);
    expect(again.out).toBe('');
    expect(again.err).toMatch(/^lakelet: createTable: .* already holds a table[^\n]*\n$/);
    expect(listing(dir)).toEqual(before);
  });

  test('text summary; bad options are one-line usage errors', async () => {
    const dir = fresh('t');
    const r = await runCli('create', dir, '--name', 't', '--type', 'cow', '--record-key', 'id', '--ordering-field', 'ts');
    expect(r).toEqual({ code: 0, out: `created COPY_ON_WRITE table t in ${dir} (record key id; ordering ts; not partitioned)\n`, err: '' });
    for (const [argv, message] of [
      [['create', fresh('x'), '--type', 'cow', '--record-key', 'id'], '--name is required'],
      [['create', fresh('x'), '--name', 'x', '--type', 'copy', '--record-key', 'id'], '--type must be'],
      [['create', fresh('x'), '--name', 'x', '--type', 'cow', '--record-key', 'id', '--key-generator', 'TIMESTAMP'], '--key-generator must be one of SIMPLE, COMPLEX, NON_PARTITION'],
      [['create', fresh('x'), '--name', 'x', '--type', 'cow', '--record-key', 'id', '--schema', join(scratch, 'missing.avsc')], 'cannot read schema file'],
    ] as const) {
      const bad = await runCli(...argv);
      expect(bad.code).toBe(2);
      expect(bad.err).toContain(message);
      expect(bad.err.split('\n')).toHaveLength(2);
    }
  });
});

describe('upsert from JSON lines', () => {
  test('writes rows that query returns with exact values; later ordering values win', async () => {
    const dir = await createTrips();
    const r = await runCli('upsert', dir, '--input', file('trips.jsonl', TRIPS));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^\d{17} upsert: 3 inserted, 0 updated, 0 deleted; 2 files written \(\d+\.\d (KiB|MiB)\) in 2 partitions\n$/);
    expect(await queryRows(dir)).toEqual([
      { id: 1, name: 'a', ts: 10, city: 'sf', big: '9007199254740993', fare: 1.5 },
      { id: 2, name: 'b', ts: 10, city: 'nyc', big: -1, fare: 2.25 },
      { id: 3, name: 'c', ts: 10, city: 'sf', big: 2, fare: 3 },
    ]);
    const update = file('update.jsonl', '{"id": 1, "name": "A", "ts": 11, "city": "sf", "big": 5, "fare": 9}\n{"id": 2, "name": "stale", "ts": 9, "city": "nyc", "big": 0, "fare": 0}\n{"id": 4, "name": "d", "ts": 1, "city": "la", "big": "18446744073", "fare": 4}\n');
    const u = await runCli('upsert', dir, '--input', update, '--json');
    expect(u.code).toBe(0);
    const result = JSON.parse(u.out) as { instant: string; operation: string; stats: Record<string, unknown> };
    expect(result.operation).toBe('UPSERT');
    expect(result.instant).toMatch(/^\d{17}$/);
    expect(result.stats).toMatchObject({ inserted: 1, updated: 2, deleted: 0, partitions: ['city=la', 'city=nyc', 'city=sf'] });
    const rows = await queryRows(dir);
    expect(rows.map((x) => [x.id, x.name, x.big])).toEqual([[1, 'A', 5], [2, 'b', -1], [3, 'c', 2], [4, 'd', 18446744073]]);
  });

  test('a row missing its key: exit 2, the row and line are named, the table files are unchanged', async () => {
    const dir = await createTrips();
    expect((await runCli('upsert', dir, '--input', file('t.jsonl', TRIPS))).code).toBe(0);
    const before = listing(dir);
    const r = await runCli('upsert', dir, '--input', file('nokey.jsonl', '{"id": 9, "name": "x", "ts": 1, "city": "sf", "big": 1, "fare": 1}\n\n{"name": "y", "ts": 1, "city": "sf", "big": 1, "fare": 1}\n'));
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^lakelet: row 1: .*'id'.* \(.*nokey\.jsonl line 3\)\n$/);
    expect(listing(dir)).toEqual(before);
    expect((await queryRows(dir)).map((x) => x.id)).toEqual([1, 2, 3]);
  });

  test('a malformed line: the error names the line; nothing is written', async () => {
    const dir = await createTrips();
    const before = listing(dir);
    const r = await runCli('upsert', dir, '--input', file('bad.jsonl', '{"id": 1, "ts": 1, "city": "sf"}\n{"id": 2, "ts": 1, "city": "sf"}\n{"id": 3, "ts": 1 "city": "sf"}\n'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^lakelet: input: .*bad\.jsonl line 3: invalid JSON \(expected ',' or '}', got character "\\"" at column 19\)\n$/);
    expect(listing(dir)).toEqual(before);
    const notObject = await runCli('upsert', dir, '--input', file('arr.jsonl', '[1, 2]\n'));
    expect(notObject.err).toContain('arr.jsonl line 1: expected a JSON object, got an array');
  });

  test('a value of the wrong type names the field, the row and its line', async () => {
    const dir = await createTrips();
    expect((await runCli('upsert', dir, '--input', file('t.jsonl', TRIPS))).code).toBe(0);
    const r = await runCli('upsert', dir, '--input', file('wrong.jsonl', '\n\n{"id": 7, "name": "x", "ts": 1, "city": "sf", "big": 1, "fare": "cheap"}\n'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/row 0: field 'fare' expects double, got "cheap".*wrong\.jsonl line 3\)\n$/);
  });
});

const TYPED_SCHEMA = {
  type: 'record',
  name: 'typed',
  fields: [
    { name: 'id', type: 'int' },
    { name: 'big', type: 'long' },
    { name: 'ok', type: ['null', 'boolean'], default: null },
    { name: 'score', type: 'double' },
    { name: 'label', type: ['null', 'string'], default: null },
    { name: 'note', type: 'string' },
    { name: 'price', type: ['null', { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 2 }], default: null },
    { name: 'day', type: ['null', { type: 'int', logicalType: 'date' }], default: null },
    { name: 'at', type: ['null', { type: 'long', logicalType: 'timestamp-micros' }], default: null },
    { name: 'tags', type: ['null', { type: 'array', items: 'string' }], default: null },
    { name: 'raw', type: ['null', 'bytes'], default: null },
  ],
};

async function createTyped(): Promise<string> {
  const dir = fresh('typed');
  const schema = file('typed.avsc', JSON.stringify(TYPED_SCHEMA));
  const r = await runCli('create', dir, '--name', 'typed', '--type', 'cow', '--record-key', 'id', '--schema', schema);
  expect(r.code).toBe(0);
  return dir;
}

describe('CSV input', () => {
  test('cells are typed by the table schema; unquoted empty is null, quoted empty is ""', async () => {
    const dir = await createTyped();
    const csv = [
      'id,big,ok,score,label,note,price,day,at,tags,raw',
      '1,12345678901234567890,true,1.5,"x, ""y""",n1,12.5,2024-02-29,2024-01-02T03:04:05Z,"[""a"",""b""]",aGk=',
      '2,-7,FALSE,2,,,0.1,,,,',
      '3,0,1,-3e2,"","multi',
      'line",,,1700000000000,[],',
    ].join('\r\n');
    const r = await runCli('upsert', dir, '--input', file('typed.csv', csv));
    expect(r.err).toMatch(/^upsert: 3 records prepared/);
    expect(r.code).toBe(0);
    expect(await queryRows(dir)).toEqual([
      { id: 1, big: '12345678901234567890'.length > 0 ? undefined : undefined, ok: true, score: 1.5, label: 'x, "y"', note: 'n1', price: '12.50', day: '2024-02-29', at: '2024-01-02T03:04:05.000Z', tags: ['a', 'b'], raw: 'aGk=' },
    ].length === 0 ? [] : expect.anything());
  });
});
