// A clustering plan scheduled on a node-fs table names its slices by absolute `file:` paths under the table's
// directory, as Spark writes them (Hudi 0.x's executor opens dataFilePath as is), and the table still reads and
// clusters as before; a memory table (no URI another engine could open) keeps table-relative paths.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createTable, memoryStorage, type Storage } from '../../src/index.js';
import { nodeFsStorage } from '../../src/node/index.js';
import { parseRequestedReplaceMetadata } from '../../src/timeline/replace-metadata.js';
import { CLUSTER_TABLE } from './clustering-helpers.js';

type SliceInfo = { dataFilePath: string; deltaFilePaths: string[] };
const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** Three small commits, clustered; the slices of the `.replacecommit.requested` plan. */
async function clusteredSlices(storage: Storage): Promise<{ slices: SliceInfo[]; rows: number }> {
  const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], tableVersion: 6, ...CLUSTER_TABLE });
  for (let c = 0; c < 3; c++) await table.insert([{ id: `k${c}`, ts: c, p: 'a' }, { id: `j${c}`, ts: c, p: 'a' }]);
  const result = await table.cluster({ smallFileLimitBytes: 1 << 20 });
  expect(result?.fileGroupsReplaced).toBe(3);
  const requested = (await storage.list('.hoodie')).find((f) => f.path.endsWith(`${result!.instant}.replacecommit.requested`))!;
  const md = parseRequestedReplaceMetadata(await storage.read(requested.path), requested.path);
  const plan = md.clusteringPlan as { inputGroups: { slices: SliceInfo[] }[] };
  let rows = 0;
  for await (const _ of table.rows()) rows++;
  return { slices: plan.inputGroups.flatMap((g) => g.slices), rows };
}

describe('clustering plan paths under the table URI', () => {
  test('node-fs: absolute file: paths to the table files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lakelet-cluster-uri-'));
    dirs.push(dir);
    const { slices, rows } = await clusteredSlices(nodeFsStorage(dir));
    expect(rows).toBe(6);
    expect(slices).toHaveLength(3);
    for (const s of slices) expect(s.dataFilePath).toMatch(new RegExp(`^file:${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/p=a/[^/]+\\.parquet$`));
  });

  test('memory: table-relative paths', async () => {
    const { slices, rows } = await clusteredSlices(memoryStorage());
    expect(rows).toBe(6);
    for (const s of slices) expect(s.dataFilePath).toMatch(/^p=a\/[^/]+\.parquet$/);
  });
});
