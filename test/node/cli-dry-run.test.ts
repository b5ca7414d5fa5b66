// `lakelet compact --dry-run` and `lakelet clean --dry-run` in-process on a merge-on-read table in a temp dir:
// they print the plan (text and --json), change no byte of the table, and name exactly what the following
// compact / clean then compacts / deletes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { nodeFsStorage } from '../../src/node/index.js';
import { expectTreeUnchanged, treeSnapshot } from '../helpers/tree-snapshot.js';
import { runCli, runCliOk } from './cli-helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'lakelet-cli-dry-run-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;

const ok = runCliOk;

/** Upsert ids (v = `b<n>`, ts = n; even ids in ny, odd in sf). */
async function upsert(dir: string, n: number, ids: number[]): Promise<void> {
  const file = join(scratch, `batch-${++counter}.jsonl`);
  writeFileSync(file, ids.map((id) => JSON.stringify({ id, v: `b${n}`, ts: n, city: id % 2 ? 'sf' : 'ny' })).join('\n') + '\n');
  await ok('upsert', dir, '--input', file, '-q');
}

/** Data files of the table (outside .hoodie). */
async function dataFiles(dir: string): Promise<Set<string>> {
  return new Set((await nodeFsStorage(dir).list('', { recursive: true })).map((f) => f.path).filter((p) => !p.startsWith('.hoodie/')));
}

test('compact --dry-run and clean --dry-run print the plans, write nothing, and match the services that follow', async () => {
  const dir = join(scratch, 'trips');
  await ok('create', dir, '--name', 'trips', '--type', 'mor', '--record-key', 'id', '--ordering-field', 'ts', '--partition-by', 'city');
  await upsert(dir, 1, [1, 2, 3, 4]);
  await upsert(dir, 2, [1, 2]);
  await upsert(dir, 3, [3]);
  const storage = nodeFsStorage(dir);

  let before = await treeSnapshot(storage);
  const text = await ok('compact', dir, '--dry-run');
  const plan = JSON.parse(await ok('compact', dir, '--dry-run', '--json')) as { dryRun: boolean; slices: { partitionPath: string; fileId: string; logFiles: string[]; pending: boolean }[] };
  await expectTreeUnchanged(storage, before);
  expect(plan.dryRun).toBe(true);
  expect(plan.slices.map((s) => s.partitionPath).sort()).toEqual(['city=ny', 'city=sf']);
  const logs = plan.slices.reduce((n, s) => n + s.logFiles.length, 0);
  expect(text.split('\n')[0]).toBe(`dry run: the next compaction would compact 2 file slices (${logs} log files)`);
  for (const s of plan.slices) expect(text).toContain(`  ${s.partitionPath} ${s.fileId} `);
  const compacted = JSON.parse(await ok('compact', dir, '--json')) as { compactions: { fileGroups: number; logFilesCompacted: number }[] };
  expect(compacted.compactions.map((c) => [c.fileGroups, c.logFilesCompacted])).toEqual([[2, logs]]);
  expect(await ok('compact', dir, '--dry-run')).toBe('dry run: nothing to compact\n');

  await upsert(dir, 4, [1, 2]);
  await ok('compact', dir);
  before = await treeSnapshot(storage);
  const cleanText = await ok('clean', dir, '--retain-commits', '1', '--dry-run');
  const cleanPlan = JSON.parse(await ok('clean', dir, '--retain-commits', '1', '--dry-run', '--json')) as { fileCount: number; filesToDelete: Record<string, string[]> };
  await expectTreeUnchanged(storage, before);
  const planned = Object.values(cleanPlan.filesToDelete).flat().sort();
  expect(planned.length).toBeGreaterThan(0);
  expect(cleanText.split('\n')[0]).toContain(`dry run: the next clean (KEEP_LATEST_COMMITS, retain 1 commit) would delete ${planned.length} files`);
  for (const f of planned) expect(cleanText).toContain(`\n  ${f}\n`);
  const files = await dataFiles(dir);
  await ok('clean', dir, '--retain-commits', '1');
  const after = await dataFiles(dir);
  expect([...files].filter((f) => !after.has(f)).sort()).toEqual(planned);
  expect(await ok('clean', dir, '--retain-commits', '1', '--dry-run')).toBe('dry run: nothing to clean (KEEP_LATEST_COMMITS, retain 1 commit)\n');
});

test('--dry-run is refused by the commands that have none', async () => {
  const r = await runCli('archive', join(scratch, 'none'), '--dry-run');
  expect(r.code).toBe(2);
  expect(r.err).toMatch(/^lakelet: .*dry-run/);
});
