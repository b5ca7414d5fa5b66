// The CLI's write commands on the edge cases the reliability probe found (D4, D7–D11) and the key generator
// `lakelet create` picks (issue 17): each refused input names the value and leaves the table unchanged.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { jsonLines, runCli } from './cli-helpers.js';
import { listing, scratchFolder } from './cli-scratch.js';
import { createTripsIn, queryRows, TRIPS } from './cli-write-helpers.js';

const { fresh, file } = scratchFolder('lakelet-cli-write-edge-');
const createTrips = (extra: string[] = []): Promise<string> => createTripsIn(fresh, extra);

describe('lakelet create: the key generator (issue 17)', () => {
  const ROWS = '{"id":1,"id2":"x","a":"p","b":"q","ts":1}\n{"id":2,"id2":"y","a":"p","b":"r","ts":1}\n';
  const cases: { key: string; parts: string | undefined; want: string; path: string }[] = [
    { key: 'id', parts: undefined, want: 'NON_PARTITION', path: '' },
    { key: 'id,id2', parts: undefined, want: 'NON_PARTITION', path: '' },
    { key: 'id', parts: 'a', want: 'SIMPLE', path: 'a=p' },
    { key: 'id,id2', parts: 'a', want: 'COMPLEX', path: 'a=p' },
    { key: 'id', parts: 'a,b', want: 'COMPLEX', path: 'a=p/b=q' },
    { key: 'id,id2', parts: 'a,b', want: 'COMPLEX', path: 'a=p/b=q' },
  ];
  for (const c of cases) {
    test(`--record-key ${c.key}${c.parts ? ` --partition-by ${c.parts}` : ''} → ${c.want}, then upsert and query`, async () => {
      const dir = fresh('kg');
      const created = await runCli('create', dir, '--name', 't', '--type', 'mor', '--record-key', c.key, '--ordering-field', 'ts', ...(c.parts ? ['--partition-by', c.parts] : []), '--json');
      expect(created).toMatchObject({ code: 0, err: '' });
      expect(JSON.parse(created.out)).toMatchObject({ keyGeneratorType: c.want });
      const up = await runCli('upsert', dir, '--input', file('kg.jsonl', ROWS), '-q');
      expect(up).toMatchObject({ code: 0, err: '' });
      const q = await runCli('query', dir, '--where', 'id = 1');
      expect(q).toMatchObject({ code: 0, err: '' });
      expect(jsonLines(q.out)).toMatchObject([{ _hoodie_partition_path: c.path, id: 1, id2: 'x' }]);
    });
  }

  for (const [kg, key, parts] of [['SIMPLE', 'id', 'a,b'], ['SIMPLE', 'id,id2', 'a'], ['NON_PARTITION', 'id', 'a']] as const) {
    test(`--key-generator ${kg} with --record-key ${key} --partition-by ${parts} is refused; no directory is left`, async () => {
      const dir = fresh('kg-bad');
      const r = await runCli('create', dir, '--name', 't', '--type', 'cow', '--record-key', key, '--partition-by', parts, '--key-generator', kg);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(new RegExp(`^lakelet: createTable: key generator ${kg} cannot take record key ${key}, partition fields ${parts}`));
      expect(() => statSync(dir)).toThrow(/ENOENT/);
    });
  }
});

describe('lakelet upsert: strings the table cannot store exactly (D7)', () => {
  test('a JSON \\ud800 escape in a string is refused with the input line; the table is unchanged', async () => {
    const dir = await createTrips();
    const up = await runCli('upsert', dir, '--input', file('t.jsonl', TRIPS), '-q');
    expect(up.code).toBe(0);
    const before = listing(dir);
    const bad = await runCli('upsert', dir, '--input', file('s.jsonl', '{"id":7,"name":"ok","city":"c","ts":1}\n{"id":8,"name":"k\\ud800","city":"c","ts":1}\n'), '-q');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^lakelet: row 1: field 'name' holds a lone UTF-16 surrogate \(\\ud800\).*s\.jsonl line 2\)\n$/);
    expect(listing(dir)).toEqual(before);
  });
});

describe('NaN and ±Infinity round-trip through query and upsert (D9)', () => {
  test('float and double columns: CSV in, JSON lines out and back in, CSV out and back in', async () => {
    const schema = file('s.avsc', JSON.stringify({ type: 'record', name: 'r', fields: [
      { name: 'id', type: 'long' }, { name: 'f', type: ['null', 'float'], default: null }, { name: 'd', type: 'double' },
    ] }));
    const make = async () => {
      const dir = fresh('nan');
      expect(await runCli('create', dir, '--name', 'n', '--type', 'cow', '--record-key', 'id', '--schema', schema)).toMatchObject({ code: 0 });
      return dir;
    };
    const first = await make();
    const csvIn = 'id,f,d\n1,NaN,NaN\n2,Infinity,-Infinity\n3,-Infinity,Infinity\n4,1.5,2.5\n5,,0\n';
    expect(await runCli('upsert', first, '--input', file('in.csv', csvIn), '-q')).toMatchObject({ code: 0, err: '' });
    const want = [
      { id: 1, f: 'NaN', d: 'NaN' }, { id: 2, f: 'Infinity', d: '-Infinity' }, { id: 3, f: '-Infinity', d: 'Infinity' },
      { id: 4, f: 1.5, d: 2.5 }, { id: 5, f: null, d: 0 },
    ];
    expect(await queryRows(first)).toEqual(want);

    const json = await runCli('query', first, '--format', 'jsonl');
    const second = await make();
    const up = await runCli('upsert', second, '--input', file('out.jsonl', json.out), '-q');
    expect(up).toMatchObject({ code: 0, err: '' });
    expect(await queryRows(second)).toEqual(want);

    const csv = await runCli('query', second, '--format', 'csv');
    const third = await make();
    expect(await runCli('upsert', third, '--input', file('out.csv', csv.out), '-q')).toMatchObject({ code: 0, err: '' });
    expect(await queryRows(third)).toEqual(want);
  });
});

describe('lakelet query: instants (D11)', () => {
  async function twoCommits(): Promise<{ dir: string; c1: string; c2: string }> {
    const dir = await createTrips();
    const one = await runCli('upsert', dir, '--input', file('a.jsonl', TRIPS), '-q', '--json');
    const two = await runCli('upsert', dir, '--input', file('b.jsonl', '{"id": 9, "ts": 1, "city": "x"}\n'), '-q', '--json');
    return { dir, c1: JSON.parse(one.out).instant as string, c2: JSON.parse(two.out).instant as string };
  }

  test('--from later than --to is refused (exit 2), not an empty answer', async () => {
    const { dir, c1, c2 } = await twoCommits();
    const r = await runCli('query', dir, '--from', c2, '--to', c1);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(new RegExp(`^lakelet: query: from ${c2} is later than to ${c1}`));
  });

  test('a 13-digit --as-of is refused, not padded; the full instant works', async () => {
    const { dir, c1 } = await twoCommits();
    const r = await runCli('query', dir, '--as-of', c1.slice(0, 13));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/option --as-of needs an instant time/);
    const ok = await runCli('query', dir, '--as-of', c1, '--columns', 'id');
    expect(ok).toMatchObject({ code: 0, err: '' });
    expect(jsonLines(ok.out)).toHaveLength(3);
  });

  test('--as-of before the first commit gives the empty table (exit 0), even after a clean', async () => {
    const { dir } = await twoCommits();
    for (const n of [3, 4]) expect(await runCli('upsert', dir, '--input', file(`${n}.jsonl`, TRIPS), '-q')).toMatchObject({ code: 0 });
    const cleaned = await runCli('clean', dir, '--retain-commits', '1');
    expect(cleaned).toMatchObject({ code: 0 });
    expect(cleaned.out).not.toMatch(/nothing/i);
    const r = await runCli('query', dir, '--as-of', '2000-01-01', '--format', 'csv', '--columns', 'id');
    expect(r).toEqual({ code: 0, out: 'id\n', err: '' });
  });
});

describe('lakelet delete by keys (D10)', () => {
  async function keyed(rows: string): Promise<string> {
    const dir = fresh('keys');
    expect(await runCli('create', dir, '--name', 'k', '--type', 'mor', '--record-key', 'id', '--partition-by', 'p')).toMatchObject({ code: 0 });
    expect(await runCli('upsert', dir, '--input', file('k.jsonl', rows), '-q')).toMatchObject({ code: 0, err: '' });
    return dir;
  }

  test('--keys-file takes one key per line, so keys may hold commas', async () => {
    const dir = await keyed('{"id":"a,b","p":"x"}\n{"id":"c","p":"y"}\n{"id":" d ","p":"y"}\n');
    const r = await runCli('delete', dir, '--keys-file', file('keys.txt', 'a,b\r\n d \n\n'), '-q');
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/ delete: 0 inserted, 0 updated, 2 deleted;/);
    expect((await queryRows(dir)).map((x) => x.id)).toEqual(['c']);
    const both = await runCli('delete', dir, '--keys', 'c', '--keys-file', file('k2.txt', 'c\n'));
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/--keys and --keys-file cannot be combined/);
    const empty = await runCli('delete', dir, '--keys-file', file('k3.txt', '\n\n'));
    expect(empty.code).toBe(2);
    expect(empty.err).toMatch(/--keys-file .* holds no key/);
  });

  test('keys that match no record are named on stderr; the delete of the others commits (exit 0)', async () => {
    const dir = await keyed('{"id":"a","p":"x"}\n{"id":"b","p":"y"}\n');
    const r = await runCli('delete', dir, '--keys', 'a,nope,b', '--keys', 'gone', '-q');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/ delete: 0 inserted, 0 updated, 2 deleted;/);
    expect(r.err).toBe('lakelet: warning: delete: 2 of 4 keys matched no record: nope, gone\n');
    const none = await runCli('delete', dir, '--keys', 'a', '-q');
    expect(none.code).toBe(0);
    expect(none.err).toBe('lakelet: warning: delete: 1 of 1 key matched no record: a\n');
    expect(await queryRows(dir)).toEqual([]);
  });
});

describe('lakelet query --where on escaped partition values (D4)', () => {
  test('values the writer percent-encodes are found by = and !=', async () => {
    const dir = await createTrips();
    const rows = ['a/b', '50%off', '../../etc', 'a\\b', ''].map((city, i) => JSON.stringify({ id: i + 1, ts: 1, city })).join('\n');
    expect(await runCli('upsert', dir, '--input', file('p.jsonl', rows), '-q')).toMatchObject({ code: 0, err: '' });
    for (const [city, id] of [['a/b', 1], ['50%off', 2], ['../../etc', 3], ['a\\b', 4], ['', 5]] as const) {
      expect((await queryRows(dir, 'id', '--where', `city = '${city}'`)).map((r) => r.id), city).toEqual([id]);
    }
    expect((await queryRows(dir, 'id', '--where', "city != 'a/b'")).map((r) => r.id)).toEqual([2, 3, 4, 5]);
  });
});

describe('lakelet upsert: a partition value too long for a folder name (D8)', () => {
  test('is refused before anything is written, naming the value; hoodie.properties keeps no inferred schema', async () => {
    const dir = await createTrips();
    const before = listing(dir);
    const long = 'x'.repeat(300);
    const r = await runCli('upsert', dir, '--input', file('long.jsonl', `{"id":1,"ts":1,"city":"sf"}\n{"id":2,"ts":1,"city":"${long}"}\n`), '-q');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^lakelet: row 1: keygen: partition path "city=x{95}"… has a segment "city=x{59}"… of 305 bytes in UTF-8 \(a file name takes at most 255\) \(.*long\.jsonl line 2\)\n$/);
    expect(listing(dir)).toEqual(before);
    expect(await runCli('upsert', dir, '--input', file('short.jsonl', '{"id":1,"ts":1,"city":"sf","other":"v"}\n'), '-q')).toMatchObject({ code: 0, err: '' });
    expect(await queryRows(dir)).toEqual([{ id: 1, ts: 1, city: 'sf', other: 'v' }]);
  });
});
