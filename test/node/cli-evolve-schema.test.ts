// `--evolve-schema` on the CLI's write commands: without it, input with columns the table lacks is refused
// naming every new column (nothing written); with it, the columns are added as nullable ones (types inferred),
// int/long columns are promoted for larger numbers and fractions, and query and inspect show the evolved schema.
import { describe, expect, test } from 'vitest';
import { nodeFsStorage, openTable } from '../../src/node/index.js';
import { jsonLines, runCli } from './cli-helpers.js';
import { listing, scratchFolder } from './cli-scratch.js';

const { fresh, file } = scratchFolder('lakelet-cli-evolve-');

/** A table keyed by id, ordered by ts, with rows a and b of columns id, ts, n. */
async function tableWithRows(type: 'cow' | 'mor', schemaFile?: string): Promise<string> {
  const dir = fresh('t');
  const made = await runCli('create', dir, '--name', 't', '--type', type, '--record-key', 'id', '--ordering-field', 'ts', ...(schemaFile ? ['--schema', schemaFile] : []));
  expect(made.code).toBe(0);
  const w = await runCli('upsert', dir, '-q', '--input', file('first.jsonl', '{"id":"a","ts":1,"n":1}\n{"id":"b","ts":1,"n":2}\n'));
  expect(w).toMatchObject({ code: 0, err: '' });
  return dir;
}

async function rows(dir: string): Promise<Record<string, unknown>[]> {
  const r = await runCli('query', dir, '--columns', 'id,ts,n,extra,score');
  expect(r).toMatchObject({ code: 0, err: '' });
  return jsonLines(r.out).sort((a, b) => String(a.id).localeCompare(String(b.id)));
}

/** The table's data fields and their Avro types, as `lakelet inspect --json` shows the latest schema. */
async function latestFields(dir: string): Promise<Record<string, unknown>> {
  const doc = JSON.parse((await runCli('inspect', dir, '--json')).out) as { schemaHistory: { schema: { fields: { name: string; type: unknown }[] } }[] };
  const last = doc.schemaHistory[doc.schemaHistory.length - 1];
  return Object.fromEntries((last?.schema.fields ?? []).filter((f) => !f.name.startsWith('_hoodie_')).map((f) => [f.name, f.type]));
}

describe('without --evolve-schema', () => {
  // CSV refuses every new header column (not only the first the parser meets); JSON lines name the first line with one.
  const inputs = [
    { what: 'JSON lines', type: 'cow', command: 'upsert', name: 'new.jsonl', text: '{"id":"c","ts":2,"n":3,"extra":"x"}\n{"id":"d","ts":2,"n":4,"score":1.5}\n' },
    { what: 'CSV', type: 'mor', command: 'insert', name: 'new.csv', text: 'id,ts,extra,n,score\nc,2,x,3,1.5\n' },
  ] as const;
  for (const c of inputs) {
    test(`${c.what} with new columns (${c.command}, ${c.type}): refused naming all of them and the flag; nothing written`, async () => {
      const dir = await tableWithRows(c.type);
      const before = listing(dir);
      const input = file(c.name, c.text);
      const r = await runCli(c.command, dir, '--input', input);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`lakelet: input: ${input} line 1: columns "extra", "score" are not in the table schema (id, ts, n); pass --evolve-schema to add them as nullable columns\n`);
      expect(listing(dir)).toEqual(before);
    });
  }

  test('input that fits the table is written as before', async () => {
    const dir = await tableWithRows('cow');
    const r = await runCli('upsert', dir, '-q', '--input', file('fits.csv', 'id,ts,n\nc,2,3\n'));
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(jsonLines((await runCli('query', dir, '--columns', 'id')).out).map((x) => x.id).sort()).toEqual(['a', 'b', 'c']);
    expect(Object.keys(await latestFields(dir))).toEqual(['id', 'ts', 'n']);
  });
});

describe('with --evolve-schema', () => {
  for (const type of ['cow', 'mor'] as const) {
    test(`${type}: JSON lines add nullable columns; old rows read null; inspect shows the change`, async () => {
      const dir = await tableWithRows(type);
      const input = file('new.jsonl', '{"id":"c","ts":2,"n":3,"extra":"x"}\n{"id":"a","ts":2,"n":5,"score":1.5}\n');
      const r = await runCli('upsert', dir, '--evolve-schema', '--input', input);
      expect(r.code).toBe(0);
      expect(r.err).toContain('upsert: the table schema evolves: added extra, score\n');
      expect(await rows(dir)).toEqual([
        { id: 'a', ts: 2, n: 5, extra: null, score: 1.5 },
        { id: 'b', ts: 1, n: 2, extra: null, score: null },
        { id: 'c', ts: 2, n: 3, extra: 'x', score: null },
      ]);
      expect(await latestFields(dir)).toMatchObject({ extra: ['null', 'string'], score: ['null', 'double'] });
      const text = (await runCli('inspect', dir)).out;
      expect(text).toContain('Schema history: 2 schemas\n');
      expect(text).toMatch(/\n {2}\d{17}\s+5\s+added extra \(nullable string\); added score \(nullable double\)\n/);
      // The next write without the flag and without the new columns fits the evolved table.
      expect((await runCli('upsert', dir, '-q', '--input', file('later.jsonl', '{"id":"d","ts":3,"n":6}\n'))).code).toBe(0);
    });
  }

  test('CSV: new columns typed from their cells (integers, booleans, text), then typed by the new schema', async () => {
    const dir = await tableWithRows('cow');
    const input = file('new.csv', 'id,ts,n,count,flag,note\nc,2,3,7,true,hello\nd,2,4,,false,"007"\n');
    const r = await runCli('bulk-insert', dir, '-q', '--evolve-schema', '--input', input);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(await latestFields(dir)).toMatchObject({ count: ['null', 'long'], flag: ['null', 'boolean'], note: ['null', 'string'] });
    const q = jsonLines((await runCli('query', dir, '--columns', 'id,count,flag,note')).out).sort((a, b) => String(a.id).localeCompare(String(b.id)));
    expect(q).toEqual([
      { id: 'a', count: null, flag: null, note: null },
      { id: 'b', count: null, flag: null, note: null },
      { id: 'c', count: 7, flag: true, note: 'hello' },
      { id: 'd', count: null, flag: false, note: '007' },
    ]);
  });

  test('promotions: an int column to long (a 40-bit value), a long column to double (a fraction); old values read promoted', async () => {
    const schema = file('t.avsc', JSON.stringify({ type: 'record', name: 't_record', fields: [{ name: 'id', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'n', type: 'int' }] }));
    const dir = await tableWithRows('cow', schema);
    expect(await latestFields(dir)).toMatchObject({ n: 'int' });
    const big = 2 ** 40;
    const r1 = await runCli('upsert', dir, '--evolve-schema', '--input', file('big.jsonl', `{"id":"c","ts":2,"n":${big}}\n`));
    expect(r1.code).toBe(0);
    expect(r1.err).toContain('the table schema evolves: n int -> long\n');
    expect(await latestFields(dir)).toMatchObject({ n: 'long' });
    const r2 = await runCli('upsert', dir, '-q', '--evolve-schema', '--input', file('frac.csv', 'id,ts,n\nd,3,2.5\n'));
    expect(r2).toMatchObject({ code: 0, err: '' });
    expect(await latestFields(dir)).toMatchObject({ n: 'double' });
    // Every value, old and new, reads as a double now.
    const table = await openTable(nodeFsStorage(dir));
    const values = new Map<string, unknown>();
    for await (const row of table.rows({ columns: ['id', 'n'] })) values.set(row.id as string, row.n);
    expect(Object.fromEntries(values)).toEqual({ a: 1, b: 2, c: big, d: 2.5 });
    for (const v of values.values()) expect(typeof v).toBe('number');
    const history = await table.schemaHistory();
    expect(history.map((h) => h.changes)).toEqual([
      [],
      [{ kind: 'type-changed', field: 'n', from: 'int', to: 'long' }],
      [{ kind: 'type-changed', field: 'n', from: 'long', to: 'double' }],
    ]);
  });

  test('a new column holding values of different kinds is refused naming it; nothing written', async () => {
    const dir = await tableWithRows('cow');
    const before = listing(dir);
    const r = await runCli('upsert', dir, '--evolve-schema', '--input', file('mixed.jsonl', '{"id":"c","ts":2,"n":1,"extra":"x"}\n{"id":"d","ts":2,"n":1,"extra":true}\n'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/field 'extra' holds values of different types \(string and boolean\)/);
    expect(listing(dir)).toEqual(before);
  });

  test('a type Hudi cannot evolve is refused by the write: a string value in a long column stays an error', async () => {
    const dir = await tableWithRows('cow');
    const before = listing(dir);
    const r = await runCli('upsert', dir, '--evolve-schema', '--input', file('bad.jsonl', '{"id":"c","ts":2,"n":"many","extra":1}\n'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/field 'n' expects long/);
    expect(listing(dir)).toEqual(before);
  });

  test('the help of upsert, insert and bulk-insert names the flag; delete refuses it', async () => {
    for (const c of ['upsert', 'insert', 'bulk-insert']) expect((await runCli(c, '--help')).out).toContain('--evolve-schema');
    expect((await runCli('delete', '--help')).out).not.toContain('--evolve-schema');
    const dir = await tableWithRows('cow');
    const r = await runCli('delete', dir, '--evolve-schema', '--input', file('del.jsonl', '{"id":"a","ts":1,"n":1}\n'));
    expect(r.code).toBe(2);
    expect(r.err).toContain('option --evolve-schema is not for delete');
  });
});
