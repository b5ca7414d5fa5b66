// The `lakelet` CLI in-process: inspect (text and JSON), query options and formats, help/version,
// one-line errors with exit code 2, EPIPE and backpressure on stdout.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { main } from '../../src/node/cli/cli.js';
import { compareRows, expectedFields, type ExpectedFile } from '../golden/compare.js';
import { jsonLines, parseCsv, runCli } from './cli-helpers.js';

const root = inject('FIXTURES_DIR');
const V6 = join(root, 'sample_table/cow/v6_nonpartitioned.zip');
const V6_EMPTY = join(root, 'sample_table/cow/v6_empty.zip');
const V8_TRIPS = join(root, 'quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip');
const MOR_V6 = join(root, 'sample_table/mor/parquet/v6_nonpartitioned.zip');
const V6_SLICE = 'a079bdb3-731c-4894-b855-abfcd6921007-0_0-203-274_20240418173551906.parquet';

describe('help and version', () => {
  test('--help prints the usage on stdout', async () => {
    const r = await runCli('--help');
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toContain('lakelet inspect <table> [--json]');
    expect(r.out).toContain('lakelet query <table> [options]');
  });

  test('<command> --help prints that command\'s options', async () => {
    const q = await runCli('query', '--help');
    expect(q.code).toBe(0);
    for (const o of ['--as-of', '--read-optimized', '--from', '--to', '--columns', '--where', '--limit', '--format']) expect(q.out).toContain(o);
    const i = await runCli('inspect', '-h');
    expect(i.code).toBe(0);
    expect(i.out).toContain('--json');
    expect((await runCli('help', 'query')).out).toBe(q.out);
  });

  test('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await runCli('--version')).toEqual({ code: 0, out: `${pkg.version}\n`, err: '' });
  });
});

describe('inspect', () => {
  test('text: config, timeline and the latest file slice of v6_nonpartitioned', async () => {
    const r = await runCli('inspect', V6);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^Table default\.v6_nonpartitioned at /);
    expect(r.out).toMatch(/type:\s+COPY_ON_WRITE/);
    expect(r.out).toMatch(/table version:\s+6/);
    expect(r.out).toMatch(/timeline layout:\s+1/);
    expect(r.out).toMatch(/record key:\s+id/);
    expect(r.out).toMatch(/ordering:\s+longField/);
    expect(r.out).toMatch(/partition:\s+\(none\)/);
    expect(r.out).toMatch(/key generator:\s+org\.apache\.hudi\.keygen\.NonpartitionedKeyGenerator \[NON_PARTITION\]/);
    expect(r.out).toMatch(/merge mode:\s+EVENT_TIME_ORDERING/);
    expect(r.out).toMatch(/meta fields:\s+yes/);
    expect(r.out).toContain('Timeline: 2 instants');
    expect(r.out).toMatch(/20240418173550988\s+commit\s+COMPLETED\s+-/);
    expect(r.out).toMatch(/20240418173551906\s+commit\s+COMPLETED\s+-/);
    expect(r.out).toContain('1 file group in 1 partition, 1 base file, 0 log files');
    expect(r.out).toContain(`base  ${V6_SLICE}`);
    // Both commits record the same schema: one entry, at the first commit, with its 16 data fields.
    expect(r.out).toContain('Schema history: 1 schema\n');
    expect(r.out).toMatch(/\n {2}20240418173550988\s+16\s+\(first schema\)\n/);
  });

  test('--json: one document with config, timeline and slices (v6_nonpartitioned)', async () => {
    const r = await runCli('inspect', V6, '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.config).toMatchObject({
      name: 'v6_nonpartitioned', tableType: 'COPY_ON_WRITE', version: 6, timelineLayoutVersion: 1,
      recordKeyFields: ['id'], orderingFields: ['longField'], partitionFields: [], keyGeneratorType: 'NON_PARTITION',
      recordMergeMode: 'EVENT_TIME_ORDERING', populateMetaFields: true,
    });
    expect(doc.timeline.map((i: { requestedTime: string; action: string; state: string; completionTime: unknown }) => [i.requestedTime, i.action, i.state, i.completionTime]))
      .toEqual([['20240418173550988', 'commit', 'COMPLETED', null], ['20240418173551906', 'commit', 'COMPLETED', null]]);
    expect(doc.fileSlices).toHaveLength(1);
    expect(doc.fileSlices[0]).toMatchObject({ partitionPath: '', fileId: 'a079bdb3-731c-4894-b855-abfcd6921007-0', baseInstantTime: '20240418173551906', logFiles: [] });
    expect(doc.fileSlices[0].baseFile.name).toBe(V6_SLICE);
    expect(doc.fileSlices[0].baseFile.size).toBeGreaterThan(0);
    expect(doc.totals).toMatchObject({ partitions: 1, fileGroups: 1, baseFiles: 1, logFiles: 0 });
    expect(doc.schemaHistory).toHaveLength(1);
    expect(doc.schemaHistory[0]).toMatchObject({ instant: '20240418173550988', fields: 16, changes: [] });
    const names = doc.schemaHistory[0].schema.fields.map((f: { name: string }) => f.name);
    expect(names.slice(0, 5)).toEqual(['_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name']);
    expect(names).toHaveLength(21);
  });

  test('--json: layout-2 timeline with completion times and a log file (v8_trips_8i3u1d)', async () => {
    const doc = JSON.parse((await runCli('inspect', '--json', V8_TRIPS)).out);
    expect(doc.config).toMatchObject({ tableType: 'MERGE_ON_READ', version: 8, timelineLayoutVersion: 2, partitionFields: ['city'], hiveStylePartitioning: true });
    expect(doc.timeline).toHaveLength(8);
    expect(doc.timeline[0]).toMatchObject({ requestedTime: '20251220210108078', action: 'deltacommit', state: 'COMPLETED', completionTime: '20251220210109593' });
    expect(doc.timeline.find((i: { action: string }) => i.action === 'commit')).toMatchObject({ requestedTime: '20251220210129235', completionTime: '20251220210129883' });
    expect(doc.fileSlices.map((s: { partitionPath: string }) => s.partitionPath)).toEqual(['city=chennai', 'city=san_francisco', 'city=sao_paulo']);
    const saoPaulo = doc.fileSlices[2];
    expect(saoPaulo.baseInstantTime).toBe('20251220210129235');
    expect(saoPaulo.logFiles).toHaveLength(1);
    expect(saoPaulo.logFiles[0].name).toBe('.8aa68f7e-afd6-4c94-b86c-8a886552e08d-0_20251220210130911.log.1_0-1139-3316');
    expect(doc.totals).toMatchObject({ partitions: 3, fileGroups: 3, baseFiles: 3, logFiles: 1 });
  });

  test('an empty table has no instants and no slices', async () => {
    const doc = JSON.parse((await runCli('inspect', V6_EMPTY, '--json')).out);
    expect(doc.timeline).toEqual([]);
    expect(doc.fileSlices).toEqual([]);
    expect(doc.schemaHistory).toEqual([]);
    const text = (await runCli('inspect', V6_EMPTY)).out;
    expect(text).toContain('Timeline: 0 instants');
    expect(text).toContain('Schema history: 0 schemas (no completed write recorded one)');
  });
});

describe('query options', () => {
  test('default format is jsonl with meta columns first and typed values', async () => {
    const r = await runCli('query', V6, '--where', 'id = 4');
    expect(r).toMatchObject({ code: 0, err: '' });
    const [row, ...rest] = jsonLines(r.out);
    expect(rest).toEqual([]);
    expect(Object.keys(row ?? {}).slice(0, 6)).toEqual(['_hoodie_commit_time', '_hoodie_commit_seqno', '_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name', 'id']);
    expect(row).toMatchObject({ _hoodie_commit_time: '20240418173551906', id: 4, name: 'Diana', decimalField: '65432.12345', _hoodie_file_name: V6_SLICE });
    expect(row?.dateField).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(row?.timestampField).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  test('--columns picks and orders columns; --where is repeatable and ANDed; --limit stops', async () => {
    const r = await runCli('query', V6, '--columns', 'name,id', '--where', 'id >= 2', '--where', "name != 'Carol'");
    expect(r.code).toBe(0);
    const rows = jsonLines(r.out);
    expect(rows.map((x) => Object.keys(x))).toEqual(rows.map(() => ['name', 'id']));
    expect(rows.map((x) => x.id).sort()).toEqual([2, 4]);
    const limited = jsonLines((await runCli('query', V6, '--columns=id', '--limit', '2')).out);
    expect(limited).toHaveLength(2);
    expect(jsonLines((await runCli('query', V6, '--limit', '0')).out)).toEqual([]);
    const inList = jsonLines((await runCli('query', V6, '--columns', 'id', '--where', 'id IN (1, 3)')).out);
    expect(inList.map((x) => x.id).sort()).toEqual([1, 3]);
  });

  test('--as-of travels in time (instant digits or ISO date), --from/--to read incrementally', async () => {
    const first = jsonLines((await runCli('query', V6, '--as-of', '20240418173550988', '--columns', 'id')).out);
    expect(first.map((x) => x.id).sort()).toEqual([1, 2, 3]);
    const iso = jsonLines((await runCli('query', V6, '--as-of', '2024-04-18T17:35:51.000Z', '--columns', 'id')).out);
    expect(iso.map((x) => x.id).sort()).toEqual([1, 2, 3]);
    const incr = jsonLines((await runCli('query', V6, '--from', '20240418173550988', '--to', '20240418173551906', '--columns', 'id,name')).out);
    expect(incr.sort((a, b) => Number(a.id) - Number(b.id))).toEqual([{ id: 1, name: 'Alice' }, { id: 4, name: 'Diana' }]);
    const open = jsonLines((await runCli('query', V6, '--from', '20240418173550988', '--columns', 'id')).out);
    expect(open.map((x) => x.id).sort()).toEqual([1, 4]);
  });

  test('--read-optimized skips the logs of a merge-on-read table', async () => {
    const file = JSON.parse(readFileSync(join(root, 'expected/sample_table__mor__parquet__v6_nonpartitioned.json'), 'utf8')) as ExpectedFile;
    const ro = file.queries.filter((q) => q.kind === 'read_optimized').at(-1)!;
    const snap = file.queries.filter((q) => q.kind === 'snapshot' && q.asOf === ro.asOf).at(-1)!;
    expect(ro.rows.length).toBeGreaterThan(0);
    expect(snap.rows.length).toBeGreaterThan(0);
    // The two golden answers differ in values, so each check below can tell the two reads apart.
    expect(compareRows(ro.rows, snap.rows, file.columns, file.metaFields)).toBeDefined();
    const columns = expectedFields(file.columns, file.metaFields).join(',');
    const a = jsonLines((await runCli('query', MOR_V6, '--as-of', ro.asOf!, '--read-optimized', '--columns', columns)).out);
    const b = jsonLines((await runCli('query', MOR_V6, '--as-of', ro.asOf!, '--columns', columns)).out);
    expect(compareRows(ro.rows, a, file.columns, file.metaFields)).toBeUndefined();
    expect(compareRows(snap.rows, b, file.columns, file.metaFields)).toBeUndefined();
  });

  test('csv: header, RFC 4180 quoting, nested values as JSON text, nulls empty', async () => {
    const r = await runCli('query', V6, '--format', 'csv', '--where', 'id = 2');
    expect(r.code).toBe(0);
    const rows = parseCsv(r.out);
    expect(rows).toHaveLength(2);
    const header = rows[0] ?? [];
    const line = rows[1] ?? [];
    expect(header.slice(0, 2)).toEqual(['_hoodie_commit_time', '_hoodie_commit_seqno']);
    const cell = (name: string) => line[header.indexOf(name)];
    expect(cell('name')).toBe('Bob');
    expect(cell('decimalField')).toBe('67890.12345');
    expect(JSON.parse(cell('arrayField') ?? '')).toEqual([{ arr_struct_f1: 'yellow', arr_struct_f2: 400 }, { arr_struct_f1: 'purple', arr_struct_f2: 500 }]);
    expect(r.out).toContain('"[{""arr_struct_f1"":""yellow""');
    const empty = await runCli('query', V6, '--format', 'csv', '--columns', 'id,name', '--as-of', '19700101000000000');
    expect(empty.out).toBe('id,name\n');
  });

  test('table: aligned columns, a rule, long cells truncated, a row count', async () => {
    const r = await runCli('query', V6, '--format', 'table', '--columns', 'id,name,_hoodie_file_name', '--where', 'id <= 2');
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id\s+name\s+_hoodie_file_name$/);
    expect(lines[1]).toMatch(/^-+ {2}-+ {2}-+$/);
    expect(lines.at(-1)).toBe('(2 rows)');
    const body = lines.slice(2, -1);
    expect(body).toHaveLength(2);
    for (const l of body) {
      expect(l).toContain('a079bdb3-731c-4894-b855-abfcd6921007-0_…');
      expect(l).not.toContain(V6_SLICE);
      // columns line up with the header
      expect(l.indexOf('a079')).toBe(lines[0]?.indexOf('_hoodie_file_name'));
    }
    expect((await runCli('query', V6_EMPTY, '--format', 'table')).out.trimEnd().split('\n').at(-1)).toBe('(0 rows)');
  });
});

describe('errors: one stderr line, exit code 2', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const cases: [string, () => string[], RegExp][] = [
    ['no command', () => [], /missing command/],
    ['unknown command', () => ['select', V6], /unknown command "select"/],
    ['missing table argument', () => ['query'], /missing <table>/],
    ['missing path', () => ['query', join(tmpdir(), 'no-such-lakelet-table')], /no such file or directory/],
    ['unknown option', () => ['query', V6, '--bogus'], /unknown option --bogus/],
    ['unknown inspect option', () => ['inspect', V6, '--format', 'csv'], /unknown option --format/],
    ['option without value', () => ['query', V6, '--limit'], /--limit needs a value/],
    ['bad --where', () => ['query', V6, '--where', 'id ~ 3'], /filter: cannot parse/],
    ['--where on an unknown column', () => ['query', V6, '--where', 'nope = 3'], /unknown column "nope"/],
    ['--where value of the wrong type', () => ['query', V6, '--where', 'id > abc'], /does not fit column id/],
    ['--to without --from', () => ['query', V6, '--to', '20240418173551906'], /--to needs --from/],
    ['--from with --as-of', () => ['query', V6, '--from', '20240418173550988', '--as-of', '20240418173551906'], /cannot be combined/],
    ['bad --limit', () => ['query', V6, '--limit', '-3'], /--limit needs a whole number/],
    ['bad --format', () => ['query', V6, '--format', 'xml'], /--format must be one of jsonl, csv, table/],
    ['unknown --columns', () => ['query', V6, '--columns', 'id,nope'], /unknown column "nope"/],
    ['bad --as-of', () => ['query', V6, '--as-of', 'yesterday'], /--as-of needs an instant time/],
    ['repeated single option', () => ['query', V6, '--limit', '1', '--limit', '2'], /--limit given more than once/],
    ['two tables', () => ['inspect', V6, V6_EMPTY], /unexpected argument/],
    ['a file that is not a table', () => ['query', join(root, 'README.md')], /neither a directory nor a \.zip/],
    ['a directory without a table', () => {
      const d = mkdtempSync(join(tmpdir(), 'lakelet-cli-'));
      dirs.push(d);
      return ['inspect', d];
    }, /no Hudi table/],
  ];
  for (const [name, argv, message] of cases) {
    test(name, async () => {
      const r = await runCli(...argv());
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.endsWith('\n')).toBe(true);
      expect(r.err.split('\n')).toHaveLength(2); // exactly one line
      expect(r.err).toMatch(/^lakelet: /);
      expect(r.err).toMatch(message);
    });
  }
});

describe('stdout handling', () => {
  test('a closed pipe (EPIPE) ends the output quietly with exit 0', async () => {
    let writes = 0;
    let err = '';
    const code = await main(['query', V6, '--format', 'jsonl'], {
      stdout: { write: () => { writes++; throw Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }); } },
      stderr: { write: (s: string) => { err += s; return true; } },
    });
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(writes).toBe(1);
  });

  test('an EPIPE reported as an error event stops the output too', async () => {
    const listeners = new Map<string, ((...a: unknown[]) => void)[]>();
    let err = '';
    const stdout = {
      write: () => {
        queueMicrotask(() => { for (const l of listeners.get('error') ?? []) l(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })); });
        return false;
      },
      on: (e: string, l: (...a: unknown[]) => void) => { listeners.set(e, [...(listeners.get(e) ?? []), l]); },
      once: (e: string, l: (...a: unknown[]) => void) => { listeners.set(e, [...(listeners.get(e) ?? []), l]); },
      removeListener: (e: string, l: (...a: unknown[]) => void) => { listeners.set(e, (listeners.get(e) ?? []).filter((x) => x !== l)); },
    };
    const code = await main(['inspect', V6], { stdout, stderr: { write: (s: string) => { err += s; return true; } } });
    expect(code).toBe(0);
    expect(err).toBe('');
  });

  test('waits for drain when stdout reports backpressure', async () => {
    let out = '';
    let drains = 0;
    const drainListeners: (() => void)[] = [];
    const stdout = {
      write: (s: string) => {
        out += s;
        setTimeout(() => { drains++; for (const l of drainListeners.splice(0)) l(); }, 1);
        return false;
      },
      once: (e: string, l: () => void) => { if (e === 'drain') drainListeners.push(l); },
      removeListener: (_e: string, l: () => void) => { const i = drainListeners.indexOf(l); if (i >= 0) drainListeners.splice(i, 1); },
    };
    const code = await main(['query', V6, '--columns', 'id'], { stdout, stderr: { write: () => true } });
    expect(code).toBe(0);
    expect(drains).toBeGreaterThan(0);
    expect(jsonLines(out)).toHaveLength(4);
  });
});
