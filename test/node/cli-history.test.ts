// `lakelet history`: one record's versions from the command line on a table written to disk (insert, update,
// delete, reinsert of a key), as text and JSON, a partition, a key that never existed, a Spark fixture zip, help
// and the errors.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { createTable } from '../../src/index.js';
import { nodeFsStorage } from '../../src/node/index.js';
import { openFixture } from '../helpers/fixtures.js';
import { runCli } from './cli-helpers.js';

const SCHEMA = {
  type: 'record', name: 'c', namespace: 'test',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'val', type: ['null', 'string'], default: null }],
};
let dir = '';
const t: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lakelet-history-'));
  const table = await createTable(nodeFsStorage(dir), { name: 'c', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, metadataTable: false, compaction: { inline: false } });
  t.push((await table.upsert([{ id: 'k1', part: 'p', ts: 1n, val: 'a' }, { id: 'k2', part: 'q', ts: 1n, val: 'a' }])).instant);
  t.push((await table.upsert([{ id: 'k1', part: 'p', ts: 2n, val: 'b' }])).instant);
  t.push((await table.delete(['k1'])).instant);
  t.push((await table.upsert([{ id: 'k1', part: 'p', ts: 3n, val: 'c' }])).instant);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lakelet history', () => {
  test('--json: the versions newest first with values, and the end marker', async () => {
    const run = await runCli('history', dir, '--key', 'k1', '--json');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.out) as { key: string; versions: { op: string; commitTime: string; value: unknown; file?: string }[]; end: unknown };
    expect(doc.key).toBe('k1');
    expect(doc.versions.map((v) => [v.op, v.commitTime, v.value])).toEqual([
      ['insert', t[3], { id: 'k1', part: 'p', ts: 3, val: 'c' }],
      ['delete', t[2], null],
      ['update', t[1], { id: 'k1', part: 'p', ts: 2, val: 'b' }],
      ['insert', t[0], { id: 'k1', part: 'p', ts: 1, val: 'a' }],
    ]);
    expect(doc.versions.every((v) => v.file?.startsWith('part=p/'))).toBe(true);
    expect(doc.end).toEqual({ reason: 'created', before: t[0] });
  });

  test('text: one line per version, then where the history ends; --meta keeps meta columns', async () => {
    const run = await runCli('history', dir, '--key', 'k1');
    expect(run.code).toBe(0);
    const lines = run.out.trimEnd().split('\n');
    expect(lines[0]).toBe('history of k1: 4 versions, newest first');
    expect(lines.slice(1, 5).map((l) => l.split(/\s+/).slice(0, 2))).toEqual([[t[3], 'insert'], [t[2], 'delete'], [t[1], 'update'], [t[0], 'insert']]);
    expect(lines[1]).toContain('{"id":"k1","part":"p","ts":3,"val":"c"}');
    expect(lines[5]).toBe(`history ends: created at ${t[0]} (the record's first insert)`);
    const meta = JSON.parse((await runCli('history', dir, '--key', 'k1', '--json', '--meta')).out) as { versions: { value: Record<string, unknown> | null }[] };
    expect(meta.versions[0]?.value?._hoodie_commit_time).toBe(t[3]);
  });

  test('--partition narrows; a key that never existed is absent', async () => {
    const other = JSON.parse((await runCli('history', dir, '--key', 'k1', '--partition', 'part=q', '--json')).out) as { versions: unknown[]; end: unknown };
    expect(other).toEqual({ key: 'k1', versions: [], end: { reason: 'absent' } });
    const run = await runCli('history', dir, '--key', 'nope');
    expect(run.out).toBe('history of nope: 0 versions, newest first\nhistory ends: absent — the key never existed in the table\n');
  });

  test('a Spark-written fixture zip: the versions table.history gives, with completion times', async () => {
    const zip = 'quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip';
    const table = await openFixture(zip);
    let key = '';
    let want: { op: string; commitTime: string; completionTime?: string }[] = [];
    for await (const r of table.rows({ columns: ['_hoodie_record_key'] })) {
      const h = await table.history(r._hoodie_record_key as string);
      if (h.versions.length > want.length) [key, want] = [h.key, h.versions];
    }
    expect(want.length, 'an updated key').toBeGreaterThan(1);
    const run = await runCli('history', join(inject('FIXTURES_DIR'), zip), '--key', key, '--json');
    expect(run.err).toBe('');
    const doc = JSON.parse(run.out) as { versions: { op: string; commitTime: string; completionTime?: string }[]; end: { reason: string } };
    expect(doc.versions.map((v) => [v.op, v.commitTime, v.completionTime])).toEqual(want.map((v) => [v.op, v.commitTime, v.completionTime]));
    expect(doc.versions.every((v) => typeof v.completionTime === 'string')).toBe(true);
    expect(doc.end.reason).toBe('created');
  });

  test('help and errors', async () => {
    const help = await runCli('history', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: lakelet history <table> --key <record-key>');
    expect((await runCli('help', 'history')).out).toBe(help.out);
    expect((await runCli('--help')).out).toContain('lakelet history <table>');
    const noKey = await runCli('history', dir);
    expect(noKey.code).toBe(2);
    expect(noKey.err).toContain('--key is required');
    const noTable = await runCli('history', '--key', 'k1');
    expect(noTable.code).toBe(2);
    expect(noTable.err).toContain('missing <table>');
  });
});
