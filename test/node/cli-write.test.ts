// The CLI's write commands in-process: create, upsert/insert/bulk-insert/delete from JSON lines, CSV and
// parquet, read back through `lakelet query`; bad input leaves the table unchanged; the real binary end to end.
// Progress and the input parsers: cli-write-progress.test.ts; the probe's edge cases: cli-write-edge-cases.test.ts.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { fixtureStorage } from '../helpers/fixtures.js';
import { ensureDistBuilt, jsonLines, parseCsv, runBin, runCli } from './cli-helpers.js';
import { listing, scratchFolder } from './cli-scratch.js';
import { createTripsIn, queryRows, TRIPS } from './cli-write-helpers.js';

const V6_ZIP = 'sample_table/cow/v6_nonpartitioned.zip';

const { dir: scratch, fresh, file } = scratchFolder('lakelet-cli-write-');

const createTrips = (extra: string[] = []): Promise<string> => createTripsIn(fresh, extra);

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
    expect(result.stats).toMatchObject({ inserted: 1, deleted: 0, partitions: ['city=la', 'city=nyc', 'city=sf'] });
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
      '1,1234567890123456789,true,1.5,"x, ""y""",n1,12.5,2024-02-29,2024-01-02T03:04:05Z,"[""a"",""b""]",aGk=',
      '2,-7,FALSE,2,,,0.1,,,,',
      '3,0,1,-3e2,"","multi',
      'line",,,1700000000000,[],',
    ].join('\r\n');
    const r = await runCli('upsert', dir, '--input', file('typed.csv', csv));
    expect(r.err).toMatch(/^upsert: 3 records prepared/);
    expect(r.code).toBe(0);
    expect(await queryRows(dir)).toEqual([
      { id: 1, big: '1234567890123456789', ok: true, score: 1.5, label: 'x, "y"', note: 'n1', price: '12.50', day: '2024-02-29', at: '2024-01-02T03:04:05.000Z', tags: ['a', 'b'], raw: 'aGk=' },
      { id: 2, big: -7, ok: false, score: 2, label: null, note: '', price: '0.10', day: null, at: null, tags: null, raw: null },
      { id: 3, big: 0, ok: true, score: -300, label: '', note: 'multi\r\nline', price: null, day: null, at: '2023-11-14T22:13:20.000Z', tags: [], raw: null },
    ]);
  });

  test('an unknown column, a short row and a bad cell are errors naming the line; the table is unchanged', async () => {
    const dir = await createTyped();
    expect((await runCli('upsert', dir, '--input', file('ok.csv', 'id,big,score,note\n1,1,1,a\n'))).code).toBe(0);
    const before = listing(dir);
    const unknown = await runCli('upsert', dir, '--input', file('unknown.csv', 'id,big,score,note,colour\n2,1,1,a,red\n'));
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^lakelet: input: .*unknown\.csv line 1: column "colour" is not in the table schema \(id, big, ok, score, label, note, price, day, at, tags, raw\); pass --evolve-schema to add it as a nullable column\n$/);
    const short = await runCli('upsert', dir, '--input', file('short.csv', 'id,big,score,note\n2,1,1,a\n3,1,1\n'));
    expect(short.err).toContain('short.csv line 3: 3 fields, but the header has 4');
    const cell = await runCli('upsert', dir, '--input', file('cell.csv', 'id,big,score,note\n2,1,1,a\n3,1,many,b\n'));
    expect(cell.err).toMatch(/row 1: field 'score' expects double, got "many" .*cell\.csv line 3\)\n$/);
    const quote = await runCli('upsert', dir, '--input', file('quote.csv', 'id,big,score,note\n2,1,1,"open\n'));
    expect(quote.err).toContain('quote.csv line 2: unterminated quoted field');
    expect(listing(dir)).toEqual(before);
  });

  test('without a table schema each column takes one type from its cells', async () => {
    const dir = await createTrips();
    const csv = 'id,name,ts,city,zip,ratio,flag\n1,a,10,sf,007,1,true\n2,b,11,sf,94103,2.5,FALSE\n3,,12,la,,,\n';
    expect((await runCli('upsert', dir, '--input', file('plain.csv', csv))).code).toBe(0);
    expect(await queryRows(dir)).toEqual([
      { id: 1, name: 'a', ts: 10, city: 'sf', zip: '007', ratio: 1, flag: true },
      { id: 2, name: 'b', ts: 11, city: 'sf', zip: '94103', ratio: 2.5, flag: false },
      { id: 3, name: null, ts: 12, city: 'la', zip: null, ratio: null, flag: null },
    ]);
  });
});

describe('parquet input', () => {
  test('a Spark-written base file loads into a fresh table with every value intact', async () => {
    const fixture = await fixtureStorage(V6_ZIP);
    const base = (await fixture.list('', { recursive: true })).map((f) => f.path).filter((p) => p.endsWith('_20240418173551906.parquet'));
    expect(base).toHaveLength(1);
    const input = join(scratch, 'base.parquet');
    writeFileSync(input, await fixture.read(base[0] as string));
    const dir = fresh('from-parquet');
    expect((await runCli('create', dir, '--name', 'copy', '--type', 'cow', '--record-key', 'id', '--ordering-field', 'longField')).code).toBe(0);
    const r = await runCli('upsert', dir, '--input', input);
    expect(r.out).toMatch(/ upsert: 4 inserted, 0 updated, 0 deleted; 1 file written/);
    const expected = await queryRows(join(inject('FIXTURES_DIR'), V6_ZIP));
    expect(expected).toHaveLength(4);
    expect(expected[1]).toMatchObject({ id: 2, dateField: '2023-04-02', decimalField: '67890.12345', binaryField: 'bW9yZSBiaW5hcnkgZGF0YQ==' });
    expect(await queryRows(dir)).toEqual(expected);
    // The meta columns of the input were dropped: the new table's own meta values are there instead.
    const meta = jsonLines((await runCli('query', dir, '--columns', '_hoodie_commit_time,_hoodie_file_name')).out);
    expect(meta.every((m) => m._hoodie_commit_time === r.out.slice(0, 17) && String(m._hoodie_file_name).endsWith(`_${r.out.slice(0, 17)}.parquet`))).toBe(true);
  });

  test('query output (JSON lines and CSV) upserts back unchanged', async () => {
    const dir = fresh('roundtrip');
    expect((await runCli('create', dir, '--name', 'rt', '--type', 'cow', '--record-key', 'id', '--ordering-field', 'longField')).code).toBe(0);
    const fixture = await fixtureStorage(V6_ZIP);
    const base = (await fixture.list('', { recursive: true })).map((f) => f.path).find((p) => p.endsWith('_20240418173551906.parquet')) as string;
    const input = join(scratch, 'rt.parquet');
    writeFileSync(input, await fixture.read(base));
    expect((await runCli('upsert', dir, '--input', input)).code).toBe(0);
    const original = await queryRows(dir);
    const jsonl = file('rt.jsonl', (await runCli('query', dir)).out);
    const csv = file('rt.csv', (await runCli('query', dir, '--format', 'csv')).out);
    for (const input of [jsonl, csv]) {
      const r = await runCli('upsert', dir, '--input', input);
      expect(r.out).toMatch(/ upsert: 0 inserted, 4 updated, 0 deleted;/);
      expect(await queryRows(dir)).toEqual(original);
    }
  });

  test('a file that is not parquet is CORRUPT_FILE, exit 2', async () => {
    const dir = await createTrips();
    const r = await runCli('upsert', dir, '--input', file('fake.parquet', 'not parquet at all'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^lakelet: parquet: .*fake\.parquet|^lakelet: parquet:/);
  });
});

describe('insert, bulk-insert and delete', () => {
  test('bulk-insert then insert: no key lookup in either; rows added', async () => {
    const dir = await createTrips();
    const bulk = await runCli('bulk-insert', dir, '--input', file('t.jsonl', TRIPS));
    expect(bulk.out).toMatch(/^\d{17} bulk-insert: 3 inserted, 0 updated, 0 deleted;/);
    expect(bulk.err).not.toContain('looked up');
    const ins = await runCli('insert', dir, '--input', file('more.csv', 'id,name,ts,city,big,fare\n5,e,1,la,5,5.5\n'));
    expect(ins.out).toMatch(/^\d{17} insert: 1 inserted, 0 updated, 0 deleted;/);
    expect(ins.err).toMatch(/^insert: 1 record prepared, 1 file written, committed in \d+\.\d\ds\n$/);
    expect((await queryRows(dir)).map((r) => [r.id, r.city])).toEqual([[1, 'sf'], [2, 'nyc'], [3, 'sf'], [5, 'la']]);
  });

  test('delete by --keys (comma list, repeatable) and by --input rows', async () => {
    const dir = await createTrips();
    expect((await runCli('upsert', dir, '--input', file('t.jsonl', TRIPS + '\n{"id": 4, "name": "d", "ts": 1, "city": "la", "big": 4, "fare": 4}'))).code).toBe(0);
    const byKeys = await runCli('delete', dir, '--keys', '1,99', '--keys', '4');
    expect(byKeys.code).toBe(0);
    expect(byKeys.out).toMatch(/^\d{17} delete: 0 inserted, 0 updated, 2 deleted;/);
    expect((await queryRows(dir)).map((r) => r.id)).toEqual([2, 3]);
    const byRows = await runCli('delete', dir, '--input', file('gone.csv', 'id,city\n3,sf\n'), '--index', 'simple');
    expect(byRows.out).toMatch(/ delete: 0 inserted, 0 updated, 1 deleted;/);
    expect((await queryRows(dir)).map((r) => r.id)).toEqual([2]);
  });

  test('usage errors: --keys outside delete, --keys with --input, no input, unknown format and index', async () => {
    const dir = await createTrips();
    const input = file('t.jsonl', TRIPS);
    for (const [argv, message] of [
      [['upsert', dir, '--keys', '1'], '--keys is only for delete'],
      [['delete', dir, '--keys', '1', '--input', input], '--keys and --input cannot be combined'],
      [['insert', dir], 'option --input is required'],
      [['upsert', dir, '--input', file('rows.txt', '{}')], 'cannot tell the format'],
      [['upsert', dir, '--input', input, '--format', 'xml'], '--format must be one of jsonl, csv, parquet'],
      [['upsert', dir, '--input', input, '--index', 'IN_MEMORY'], '--index must be one of BLOOM, GLOBAL_BLOOM, SIMPLE, GLOBAL_SIMPLE'],
      [['upsert', fresh('none'), '--input', input], 'no such directory'],
      [['upsert', scratch, '--input', input], 'holds no Hudi table'],
      [['upsert', dir, '--input', join(scratch, 'missing.jsonl')], 'cannot read'],
    ] as const) {
      const r = await runCli(...argv);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(/^lakelet: [^\n]+\n$/);
      expect(r.err).toContain(message);
    }
  });

  test('a merge-on-read table takes upserts as deltacommits', async () => {
    const dir = fresh('mor');
    expect((await runCli('create', dir, '--name', 'm', '--type', 'mor', '--record-key', 'id')).code).toBe(0);
    const r = await runCli('upsert', dir, '--input', file('t.jsonl', TRIPS), '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).operation).toBe('UPSERT');
    expect(readdirSync(join(dir, '.hoodie')).some((f) => f.endsWith('.deltacommit'))).toBe(true);
  });
});

describe('bin/lakelet.js', () => {
  beforeAll(ensureDistBuilt, 180_000);

  test('create, upsert and query through the real binary; progress is a single stderr line', async () => {
    const dir = fresh('bin');
    const created = await runBin(['create', dir, '--name', 'bin', '--type', 'cow', '--record-key', 'id', '--ordering-field', 'ts', '--partition-by', 'city']);
    expect(created).toMatchObject({ code: 0, err: '' });
    const up = await runBin(['upsert', dir, '--input', file('t.jsonl', TRIPS)]);
    expect(up.code).toBe(0);
    expect(up.out).toMatch(/^\d{17} upsert: 3 inserted, 0 updated, 0 deleted; 2 files written .* in 2 partitions\n$/);
    expect(up.err).toMatch(/^upsert: 3 records prepared, 3 looked up, 2 files written, committed in \d+\.\d\ds\n$/);
    const q = await runBin(['query', dir, '--columns', 'id,big', '--format', 'csv']);
    expect(parseCsv(q.out).slice(1).sort()).toEqual([['1', '9007199254740993'], ['2', '-1'], ['3', '2']]);
    const again = await runBin(['create', dir, '--name', 'bin', '--type', 'cow', '--record-key', 'id']);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/^lakelet: [^\n]*already holds a table[^\n]*\n$/);
    expect(again.err).not.toMatch(/\n\s+at /);
  });
});
