// Clustering plans Spark can execute: slice paths resolved the way Hudi 1.x's executor resolves them
// (clusteringOperationToFileSlice: base file at StoragePath(basePath, dataFilePath), logs at
// StoragePath(basePath/partition, deltaFilePath)) land on the table's files, with and without the table's URI;
// with it every path is absolute (Hudi 0.x opens dataFilePath as is), as in the Spark-written fixture plans;
// every form reads back table-relative. The storage label gives the URI of node-fs and S3 tables.
import { describe, expect, it } from 'vitest';
import { planClustering, type ClusteringPlan } from '../../src/plan/clustering-plan.js';
import { clusteringPlanToAvro, clusteringRequestedBytes, parseClusteringRequested, tableBaseUri } from '../../src/timeline/clustering-plan-avro.js';
import { parseRequestedReplaceMetadata } from '../../src/timeline/replace-metadata.js';
import { fixtureStorage } from '../helpers/fixtures.js';

type SliceInfo = { dataFilePath: string; deltaFilePaths: string[]; partitionPath: string };
const slicesOf = (value: unknown): SliceInfo[] => (value as { inputGroups: { slices: SliceInfo[] }[] }).inputGroups.flatMap((g) => g.slices);

/** Hudi 1.x: StoragePath(parent, child) — an absolute child (with a scheme) as is, else parent/child. */
const storagePath = (parent: string, child: string): string => (/^[a-z][a-z0-9+.-]*:/i.test(child) ? child : `${parent.replace(/\/+$/, '')}/${child}`);
const partitionDir = (base: string, partition: string): string => (partition === '' ? base : `${base}/${partition}`);

const TABLE = 'file:/data/trips';
const plan: ClusteringPlan = planClustering(
  [
    { partitionPath: 'region=eu', fileId: 'f1-0', baseFile: { path: 'region=eu/f1-0_0-1-1_001.parquet', sizeBytes: 10 }, logFiles: [{ path: 'region=eu/.f1-0_001.log.1_0-1-1', sizeBytes: 5 }] },
    { partitionPath: 'region=eu', fileId: 'f2-0', logFiles: [{ path: 'region=eu/.f2-0_002.log.1_0-1-1', sizeBytes: 5 }] },
    { partitionPath: '', fileId: 'f3-0', baseFile: { path: 'f3-0_0-1-1_001.parquet', sizeBytes: 10 }, logFiles: [] },
  ],
  new Set(),
  {},
)!;
const files = new Set(plan.groups.flatMap((g) => g.slices.flatMap((s) => [...(s.baseFile ? [s.baseFile.path] : []), ...s.logFiles.map((l) => l.path)])));

describe('clustering plan paths', () => {
  for (const basePath of [undefined, TABLE]) {
    it(`${basePath ? 'with' : 'without'} the table URI, Hudi 1.x's executor finds every file and the plan reads back table-relative`, () => {
      const value = clusteringPlanToAvro(plan, basePath ? { basePath } : {});
      const resolved = new Set<string>();
      for (const s of slicesOf(value)) {
        if (s.dataFilePath !== '') resolved.add(storagePath(TABLE, s.dataFilePath));
        for (const d of s.deltaFilePaths) resolved.add(storagePath(partitionDir(TABLE, s.partitionPath), d));
        if (basePath) for (const p of [s.dataFilePath, ...s.deltaFilePaths].filter((x) => x !== '')) expect(p.startsWith(`${TABLE}/`)).toBe(true);
      }
      expect(resolved).toEqual(new Set([...files].map((f) => `${TABLE}/${f}`)));
      const back = parseClusteringRequested(clusteringRequestedBytes(plan, 9, basePath ? { basePath } : {}), 'p');
      expect(back.groups.flatMap((g) => g.slices.map((s) => [s.baseFile?.path, ...s.logFiles.map((l) => l.path)]))).toEqual(plan.groups.flatMap((g) => g.slices.map((s) => [s.baseFile?.path, ...s.logFiles.map((l) => l.path)])));
    });
  }

  it('a plan made with the basePath option is written absolute under it', () => {
    const withUri = planClustering([{ partitionPath: 'p', fileId: 'a-0', baseFile: { path: 'p/a-0_0-1-1_001.parquet', sizeBytes: 1 }, logFiles: [] }], new Set(), { basePath: 's3a://b/t' })!;
    expect(slicesOf(clusteringPlanToAvro(withUri))[0]!.dataFilePath).toBe('s3a://b/t/p/a-0_0-1-1_001.parquet');
    const bytes = clusteringRequestedBytes(withUri, 6);
    expect(slicesOf(parseRequestedReplaceMetadata(bytes, 'x').clusteringPlan)[0]!.dataFilePath).toBe('s3a://b/t/p/a-0_0-1-1_001.parquet');
    expect(() => planClustering([], new Set(), { basePath: 'relative/dir' })).toThrow(/basePath/);
  });

  it('Spark\'s fixture plans name files of the table, read back table-relative, and are written back as Spark wrote them', async () => {
    for (const [zip, base] of [['sample_table/cow/v9_txns_simple_nometa.zip', 'file:/tmp/v9-gen/warehouse/v9_txns_cow_simple_nometa'], ['sample_table/mor/avro/v9_txns_simple_nometa.zip', 'file:/tmp/v9-gen/warehouse/v9_txns_mor_simple_nometa']] as const) {
      const storage = await fixtureStorage(zip);
      const requested = (await storage.list('.hoodie/timeline')).find((f) => f.path.endsWith('.clustering.requested'))!;
      const bytes = await storage.read(requested.path);
      const plan9 = parseClusteringRequested(bytes, requested.path);
      for (const s of plan9.groups.flatMap((g) => g.slices)) expect((await storage.head(s.baseFile!.path)).size).toBeGreaterThan(0);
      const spark = slicesOf(parseRequestedReplaceMetadata(bytes, requested.path).clusteringPlan);
      expect(slicesOf(clusteringPlanToAvro(plan9, { basePath: base })).map((s) => s.dataFilePath)).toEqual(spark.map((s) => s.dataFilePath));
      expect(spark.every((s) => s.dataFilePath.startsWith(`${base}/`))).toBe(true);
    }
  });

  it('derives the URI of node-fs and S3 tables from the storage label, none for other stores', () => {
    expect(tableBaseUri('fs:/data/trips')).toBe('file:/data/trips');
    expect(tableBaseUri('fs:/data/trips/')).toBe('file:/data/trips');
    expect(tableBaseUri('s3://bucket/warehouse/trips')).toBe('s3a://bucket/warehouse/trips');
    expect(tableBaseUri('s3://bucket')).toBe('s3a://bucket');
    for (const label of ['memory', 'fs:relative/dir', 'opfs:trips', 'idb:trips', 'my label']) expect(tableBaseUri(label)).toBeUndefined();
  });
});
