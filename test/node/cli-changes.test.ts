// `lakelet changes`: the CDC query from the command line on a table written to disk (insert, update, delete,
// reinsert of a key), as JSON lines and CSV, range bounds, `earliest`, `--cdc-source`, a Spark fixture zip, and the
// errors.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTable } from '../../src/index.js';
import { nodeFsStorage } from '../../src/node/index.js';
import { jsonLines, parseCsv, runCli } from './cli-helpers.js';

const SCHEMA = {
  type: 'record', name: 'c', namespace: 'test',
  fields: [{ name: 'id', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'val', type: ['null', 'string'], default: null }],
};
let dir = '';
const t: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lakelet-changes-'));
  const table = await createTable(nodeFsStorage(dir), { name: 'c', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', schema: SCHEMA, metadataTable: false });
  t.push((await table.upsert([{ id: 'k1', ts: 1n, val: 'a' }, { id: 'k2', ts: 1n, val: 'a' }])).instant);
  t.push((await table.upsert([{ id: 'k1', ts: 2n, val: 'b' }])).instant);
  t.push((await table.delete(['k1'])).instant);
  t.push((await table.upsert([{ id: 'k1', ts: 3n, val: 'c' }])).instant);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lakelet changes', () => {
  test('jsonl: every change of the range in commit order with its images', async () => {
    const run = await runCli('changes', dir, '--from', 'earliest');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const lines = jsonLines(run.out);
    expect(lines.map((l) => [l.op, l.commit_time, (l.after ?? l.before) as Record<string, unknown>])).toEqual([
      ['i', t[0], { id: 'k1', ts: 1, val: 'a' }],
      ['i', t[0], { id: 'k2', ts: 1, val: 'a' }],
      ['u', t[1], { id: 'k1', ts: 2, val: 'b' }],
      ['d', t[2], { id: 'k1', ts: 2, val: 'b' }],
      ['i', t[3], { id: 'k1', ts: 3, val: 'c' }],
    ]);
    expect(lines[2]!.before).toEqual({ id: 'k1', ts: 1, val: 'a' });
    expect(lines[3]!.after).toBeNull();
    expect(typeof lines[0]!.ts_ms).toBe('number');
  });

  test('--from exclusive, --to inclusive; csv with the images as JSON text', async () => {
    const run = await runCli('changes', dir, '--from', t[0]!, '--to', t[2]!, '--format', 'csv');
    expect(run.code).toBe(0);
    const [header, ...rows] = parseCsv(run.out);
    expect(header).toEqual(['op', 'ts_ms', 'commit_time', 'before', 'after']);
    expect(rows.map((r) => [r[0], r[2]])).toEqual([['u', t[1]], ['d', t[2]]]);
    expect(JSON.parse(rows[0]![3]!)).toEqual({ id: 'k1', ts: 1, val: 'a' });
    expect(JSON.parse(rows[0]![4]!)).toEqual({ id: 'k1', ts: 2, val: 'b' });
  });

  test('a Spark-written fixture zip', async () => {
    const { inject } = await import('vitest');
    const run = await runCli('changes', join(inject('FIXTURES_DIR'), 'sample_table/cow/v6_nonpartitioned.zip'), '--from', 'earliest');
    expect(run.code).toBe(0);
    // Two commits: three inserts, then one update and one insert (the fixture test checks them against snapshots).
    expect(jsonLines(run.out).map((l) => l.op)).toEqual(['i', 'i', 'i', 'u', 'i']);
  });

  test('errors: --from missing, a reversed range, a bad format — exit 2, one line', async () => {
    for (const argv of [['changes', dir], ['changes', dir, '--from', t[2]!, '--to', t[0]!], ['changes', dir, '--from', 'earliest', '--format', 'xml']]) {
      const run = await runCli(...argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.out).toBe('');
      expect(run.err).toMatch(/^lakelet: .*\n$/);
    }
  });

  test('--cdc-source: infer gives the default\'s changes; files refuses a rewritten base file with no .cdc file; a bad value is a usage error', async () => {
    const auto = await runCli('changes', dir, '--from', 'earliest');
    const infer = await runCli('changes', dir, '--from', 'earliest', '--cdc-source', 'infer');
    expect(infer.code).toBe(0);
    expect(infer.out).toBe(auto.out);
    // The table has no CDC: the update of k1 rewrote its base file without a .cdc file.
    const files = await runCli('changes', dir, '--from', 'earliest', '--cdc-source', 'files');
    expect(files.code).toBe(2);
    expect(files.out).toBe('');
    expect(files.err).toMatch(/^lakelet: changes: .*\.parquet rewrote file group .* without a \.cdc log file.*\n$/);
    // Before the update, the first commit's inserts need no .cdc file.
    expect((await runCli('changes', dir, '--from', 'earliest', '--to', t[0]!, '--cdc-source', 'files')).code).toBe(0);
    const bad = await runCli('changes', dir, '--from', 'earliest', '--cdc-source', 'spark');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--cdc-source must be one of auto, files, infer');
  });

  test('help', async () => {
    const run = await runCli('help', 'changes');
    expect(run.out).toContain('Usage: lakelet changes <table> --from <instant>');
    expect((await runCli('changes', '--help')).out).toBe(run.out);
    expect((await runCli('--help')).out).toContain('lakelet changes <table>');
  });
});
