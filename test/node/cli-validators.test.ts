// The write commands' `--validate <spec>` (issue 14, data quality) in-process: each spec passes a good batch and
// refuses a bad one with exit 2, one `lakelet:` line naming the check, and the table directory byte-identical;
// specs repeat; a malformed spec is a usage error before anything is read; the help lists the option.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createTable } from '../../src/index.js';
import { nodeFsStorage } from '../../src/node/index.js';
import { parseValidateSpec } from '../../src/node/cli/validators.js';
import { expectTreeUnchanged, treeSnapshot } from '../helpers/tree-snapshot.js';
import { runCli } from './cli-helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'lakelet-cli-validators-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;

const SCHEMA = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: ['null', 'long'], default: null }] };
const QUIET = { compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false } };

/** A table of two rows (a, b in partition x) in a fresh directory. */
async function table(type: 'COPY_ON_WRITE' | 'MERGE_ON_READ' = 'COPY_ON_WRITE'): Promise<string> {
  const dir = join(scratch, `t-${++counter}`);
  const t = await createTable(nodeFsStorage(dir), { name: 'v', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...QUIET });
  await t.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }, { id: 'b', part: 'x', ts: 1, v: 2 }]);
  return dir;
}

function jsonl(rows: object[]): string {
  const path = join(scratch, `in-${++counter}.jsonl`);
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

/** Run a write that a check must refuse: exit 2, one stderr line matching `message`, the directory unchanged. */
async function expectRefused(dir: string, argv: string[], message: RegExp): Promise<void> {
  const before = await treeSnapshot(nodeFsStorage(dir));
  const r = await runCli(...argv, '--quiet');
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toMatch(message);
  expect(r.err.trim().split('\n')).toHaveLength(1);
  await expectTreeUnchanged(nodeFsStorage(dir), before);
}

describe('lakelet <write> --validate', () => {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const) {
    test(`each check passes a good batch and refuses a bad one with exit 2 (${type})`, async () => {
      const dir = await table(type);
      const good = jsonl([{ id: 'c', part: 'x', ts: 1, v: 3 }]);
      const ok = await runCli('upsert', dir, '--input', good, '--validate', 'not-null:id,v', '--validate', 'unique', '--validate', 'row-count:1..3', '--validate', 'expect:v >= 0', '--quiet');
      expect(ok.err).toBe('');
      expect(ok.code).toBe(0);
      expect(ok.out).toMatch(/upsert: 1 inserted/);
      await expectRefused(dir, ['insert', dir, '--input', jsonl([{ id: 'd', part: 'x', ts: 1, v: null }]), '--validate', 'not-null:v'], /^lakelet: pre-commit validator notNull\(v\) failed: column "v" is null in record key "d"/);
      await expectRefused(dir, ['bulk-insert', dir, '--input', jsonl([{ id: 'a', part: 'x', ts: 2, v: 1 }]), '--validate', 'unique'], /validator unique failed: record key "a" \(partition "part=x"\) is already in the table/);
      await expectRefused(dir, ['insert', dir, '--input', jsonl([{ id: 'e', part: 'x', ts: 1, v: 1 }]), '--validate', 'row-count:..3'], /rowCount\(\.\.3\) failed: the table would hold 4 rows, more than the maximum 3/);
      await expectRefused(dir, ['delete', dir, '--keys', 'a,b', '--validate', 'row-count:2..'], /the table would hold 1 rows, fewer than the minimum 2/);
      await expectRefused(dir, ['upsert', dir, '--input', jsonl([{ id: 'f', part: 'x', ts: 1, v: -5 }]), '--validate', "expect:v >= 0"], /expect\(v >= 0\) failed: record key "f" .*does not satisfy v >= 0/);
      // The table took only the good batch, and takes the next write.
      const q = await runCli('query', dir, '--columns', 'id', '--format', 'jsonl');
      expect(q.out.trim().split('\n').sort()).toEqual(['{"id":"a"}', '{"id":"b"}', '{"id":"c"}']);
      expect((await runCli('upsert', dir, '--input', jsonl([{ id: 'g', part: 'x', ts: 1, v: 1 }]), '--quiet')).code).toBe(0);
      const v = await runCli('validate', dir);
      expect(v.code).toBe(0);
    });
  }

  test('a malformed spec is a usage error (exit 2) before the table is touched', async () => {
    const dir = await table();
    for (const [spec, message] of [
      ['nope', /unknown check "nope"/],
      ['not-null:', /not-null needs column names/],
      ['unique:x', /unique takes no argument/],
      ['row-count:abc', /row-count takes MIN\.\.MAX/],
      ['row-count:9..2', /minimum 9 is above the maximum 2/],
      ['expect:v ~ 1', /cannot parse/],
    ] as const) {
      await expectRefused(dir, ['upsert', dir, '--input', jsonl([{ id: 'z', part: 'x', ts: 1, v: 1 }]), '--validate', spec], message);
    }
  });

  test('specs parse into the built-ins (names as the ABORTED message gives them)', () => {
    const name = (spec: string) => { const v = parseValidateSpec(spec); return typeof v === 'function' ? v.name : v.name; };
    expect(name('not-null:a, b')).toBe('notNull(a,b)');
    expect(name('UNIQUE')).toBe('unique');
    expect(name('row-count:10..')).toBe('rowCount(10..)');
    expect(name('row-count:7')).toBe('rowCount(7..7)');
    expect(name("expect:city IN 'a','b'")).toBe("expect(city IN 'a','b')");
  });

  test('the write commands document --validate', async () => {
    for (const command of ['upsert', 'insert', 'bulk-insert', 'delete']) {
      const r = await runCli('help', command);
      expect(r.out).toMatch(/--validate <spec>.*\n(.*\n)*.*not-null:<a\[,b\]>.*\n(.*\n)*.*row-count:MIN\.\.MAX/);
    }
  });
});
