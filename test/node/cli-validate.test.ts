// `lakelet validate`: a clean fixture prints ok and exits 0 (text and --json), a copy on disk with a deleted data
// file prints each problem with its check and path and exits 2, in-process and through the real bin/lakelet.js.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { nodeFsStorage } from '../../src/node/index.js';
import { TableState } from '../../src/engine/table-state.js';
import { fixtureStorage } from '../helpers/fixtures.js';
import { ensureDistBuilt, runBin, runCli } from './cli-helpers.js';

const COW9 = 'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip';
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of a fixture table in a temporary directory, and the path of one live base file in it (deleted). */
async function damagedCopy(zip: string): Promise<{ dir: string; victim: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'lakelet-validate-'));
  dirs.push(dir);
  const source = await fixtureStorage(zip);
  const target = nodeFsStorage(dir);
  for (const f of await source.list('', { recursive: true })) await target.write(f.path, await source.read(f.path));
  const state = await TableState.load(target);
  const victim = (await state.fileSystemView()).latestSlices().find((s) => s.baseFile)?.baseFile?.path as string;
  await target.delete(victim);
  return { dir, victim };
}

describe('lakelet validate (in-process)', () => {
  test('a clean table: ok, exit 0', async () => {
    const path = join(inject('FIXTURES_DIR'), COW9);
    const r = await runCli('validate', path);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${path}: ok (checked files-exist, files-partition, record-index, column-stats, partition-stats, metadata-structure)\n`);
  });

  test('--json prints the result object', async () => {
    const r = await runCli('validate', join(inject('FIXTURES_DIR'), 'sample_table/cow/v6_nonpartitioned.zip'), '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ ok: true, problems: [], checked: ['files-exist'] });
  });

  test('a table with a deleted data file: each problem with its check and path, exit 2', async () => {
    const { dir, victim } = await damagedCopy(COW9);
    const r = await runCli('validate', dir);
    expect(r.code).toBe(2);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^files-exist  ${victim.replace(/[.]/g, '\\.')}: `));
    expect(lines[1]).toMatch(new RegExp(`^files-partition  ${victim.replace(/[.]/g, '\\.')}: `));
    expect(lines[2]).toBe(`${dir}: 2 problems (checked files-exist, files-partition, metadata-structure)`);
    const json = await runCli('validate', dir, '--json');
    expect(json.code).toBe(2);
    const result = JSON.parse(json.out) as { ok: boolean; problems: { check: string; path: string }[] };
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => [p.check, p.path])).toEqual([['files-exist', victim], ['files-partition', victim]]);
  });

  test('usage errors and help', async () => {
    const missing = await runCli('validate');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^lakelet: validate: missing <table>/);
    const help = await runCli('validate', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: lakelet validate <table> \[--json\]/);
    expect((await runCli('help', 'validate')).out).toBe(help.out);
    expect((await runCli('--help')).out).toContain('lakelet validate <table> [--json]');
  });
});

describe('lakelet validate (bin)', () => {
  beforeAll(ensureDistBuilt, 180_000);

  test('exit 0 on a clean table, 2 on a damaged one', async () => {
    const clean = await runBin(['validate', join(inject('FIXTURES_DIR'), COW9)]);
    expect(clean.err).toBe('');
    expect(clean.code).toBe(0);
    const { dir, victim } = await damagedCopy(COW9);
    const bad = await runBin(['validate', dir]);
    expect(bad.code).toBe(2);
    expect(bad.out).toContain(`files-exist  ${victim}: `);
  }, 60_000);
});
