// `lakelet cluster <dir>` in-process on copy-on-write tables in temp dirs: small file groups rewritten into
// fewer sorted ones (rows unchanged), the one-line and JSON results, the help text, and bad options refused.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { jsonLines, runCli, runCliOk } from './cli-helpers.js';
import { createTable, nodeFsStorage } from '../../src/node/index.js';

const scratch = mkdtempSync(join(tmpdir(), 'lakelet-cli-cluster-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;

const ok = runCliOk;

/** A table of `commits` inserts of 3 rows each into partition city=sf, one new file group per commit (library-made). */
async function smallFiles(commits: number): Promise<string> {
  const dir = join(scratch, `t-${++counter}`);
  mkdirSync(dir);
  const table = await createTable(nodeFsStorage(dir), { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['city'], smallFileLimit: 0, workers: 0 });
  for (let c = 0; c < commits; c++) await table.insert([0, 1, 2].map((j) => ({ id: c * 3 + j, v: ((c * 3 + j) * 7) % 10, ts: 1, city: 'sf' })));
  return dir;
}

const parquetFiles = (dir: string) => readdirSync(join(dir, 'city=sf')).filter((n) => n.endsWith('.parquet'));

describe('lakelet cluster', () => {
  test('rewrites the small file groups sorted by a column; rows unchanged; then nothing left to sort apart', async () => {
    const dir = await smallFiles(4);
    const before = (jsonLines(await ok('query', dir, '--columns', 'id,v,_hoodie_commit_time')) as { id: number }[]).sort((a, b) => a.id - b.id);
    expect(parquetFiles(dir)).toHaveLength(4);
    const out = await ok('cluster', dir, '--sort-columns', 'v', '--layout', 'linear', '--json');
    const result = (JSON.parse(out) as { clustering: { instant: string; fileGroupsReplaced: number; fileGroupsWritten: number; recordsWritten: number } }).clustering;
    expect(result).toMatchObject({ fileGroupsReplaced: 4, fileGroupsWritten: 1, recordsWritten: 12 });
    const after = (jsonLines(await ok('query', dir, '--columns', 'id,v,_hoodie_commit_time')) as { id: number }[]).sort((a, b) => a.id - b.id);
    expect(after).toEqual(before);
    // The new file's rows are in sort-column order.
    const inFile = jsonLines(await ok('query', dir, '--columns', 'v')).map((r) => r.v as number);
    expect(inFile).toEqual([...inFile].sort((a, b) => a - b));
    // A second run with a tiny small-file limit finds nothing.
    expect(await ok('cluster', dir, '--small-file-limit', '1')).toBe('nothing to cluster (no partition has small file groups to rewrite)\n');
    const line = await ok('cluster', dir, '--target-file-size', '100000000');
    expect(line).toMatch(/^\d{17} clustering: 1 file group rewritten into 1 file group \(12 records, \d+ bytes\)\n$/);
  }, 120_000);

  test('help and bad options', async () => {
    expect(await ok('help', 'cluster')).toContain('Usage: lakelet cluster <dir>');
    expect(await ok('cluster', '--help')).toContain('--layout <l>');
    for (const [argv, message] of [
      [['--layout', 'spiral'], 'option --layout must be one of linear, z-order, hilbert'],
      [['--layout', 'z-order'], 'option --layout needs --sort-columns'],
      [['--sort-columns', 'a,,b'], 'option --sort-columns needs column names'],
      [['--target-file-size', '0'], 'option --target-file-size needs a whole number'],
    ] as const) {
      const r = await runCli('cluster', join(scratch, 'none'), ...argv);
      expect(r.code).toBe(2);
      expect(r.err).toContain(message);
    }
  });
});
