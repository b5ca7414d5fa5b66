// The clustering plan's Avro form against the `.clustering.requested` files Spark wrote into the v9 fixtures:
// parsed, re-serialized and parsed again field by field, reproduced byte for byte (same schema text, same
// values, same sync marker) when given the table URI Spark used; v6 writes the 0.14 schema; bad shapes are
// CORRUPT_FILE.
import { describe, expect, it } from 'vitest';
import { isLakeletError } from '../../src/errors.js';
import { readAvroContainer } from '../../src/format/avro/container.js';
import { planClustering, SORT_AND_SIZE_EXECUTION_STRATEGY, type ClusteringPlan } from '../../src/plan/clustering-plan.js';
import { REQUESTED_REPLACE_METADATA_SCHEMA } from '../../src/timeline/avro-schemas.js';
import { clusteringPlanFromAvro, clusteringPlanToAvro, clusteringRequestedBytes, parseClusteringRequested } from '../../src/timeline/clustering-plan-avro.js';
import { parseRequestedReplaceMetadata } from '../../src/timeline/replace-metadata.js';
import { zipEntries } from '../helpers/zip-entry.js';

/** The one `.clustering.requested` of a fixture zip, and the base URI Spark wrote its slice paths under. */
function clusteringRequested(zip: string): { name: string; bytes: Uint8Array } {
  const hits = Object.entries(zipEntries(zip)).filter(([n]) => n.endsWith('.clustering.requested'));
  expect(hits).toHaveLength(1);
  return { name: hits[0]![0], bytes: hits[0]![1] };
}

const FIXTURES = [
  { zip: 'sample_table/cow/v9_txns_simple_nometa.zip', basePath: 'file:/tmp/v9-gen/warehouse/v9_txns_cow_simple_nometa', groups: [2, 1, 2] },
  { zip: 'sample_table/mor/avro/v9_txns_simple_nometa.zip', basePath: 'file:/tmp/v9-gen/warehouse/v9_txns_mor_simple_nometa', groups: [2, 1, 2] },
];

const METRIC_KEYS = ['TOTAL_LOG_FILES', 'TOTAL_IO_MB', 'TOTAL_IO_READ_MB', 'TOTAL_LOG_FILES_SIZE', 'TOTAL_IO_WRITE_MB'];

describe.each(FIXTURES)('clustering plan of $zip', ({ zip, basePath, groups }) => {
  const { name, bytes } = clusteringRequested(zip);
  const original = parseRequestedReplaceMetadata(bytes, name);
  const originalPlan = original.clusteringPlan as Record<string, unknown>;

  it('parses Spark’s plan: groups, table-relative slice paths, metrics, strategy', () => {
    const plan = parseClusteringRequested(bytes, name);
    expect(plan.groups.map((g) => g.slices.length)).toEqual(groups);
    expect(plan.groups.map((g) => g.slices[0]!.partitionPath)).toEqual(['region=apac', 'region=eu', 'region=us']);
    for (const g of plan.groups) {
      expect(g.numOutputFileGroups).toBe(1);
      expect(Object.keys(g.metrics)).toEqual(METRIC_KEYS);
      expect(g.extraMetadata).toBeNull();
      for (const s of g.slices) {
        expect(s.baseFile!.path).toMatch(new RegExp(`^${s.partitionPath}/${s.fileId}_[0-9-]+_\\d{17}\\.parquet$`));
        expect(s.logFiles).toEqual([]);
      }
    }
    expect(plan.strategyClassName).toBe(SORT_AND_SIZE_EXECUTION_STRATEGY);
    expect(plan.strategyParams).toEqual({});
    expect(plan.preserveHoodieMetadata).toBe(true);
    expect(plan.missingSchedulePartitions).toEqual([]);
    expect(plan.extraMetadata).toEqual({});
  });

  it('re-serializes to the same record, field by field', () => {
    const plan = clusteringPlanFromAvro(originalPlan, name);
    const again = parseRequestedReplaceMetadata(clusteringRequestedBytes(plan, 9, { basePath }), 'again');
    expect(again.operationType).toBe(original.operationType);
    expect(again.version).toBe(original.version);
    expect(again.extraMetadata).toEqual(original.extraMetadata);
    const a = again.clusteringPlan as Record<string, unknown>;
    expect(Object.keys(a)).toEqual(Object.keys(originalPlan));
    for (const k of Object.keys(originalPlan)) expect(a[k], k).toEqual(originalPlan[k]);
    // Key order of every map too (Avro maps are written in this order).
    const metricKeys = (p: Record<string, unknown>) => (p.inputGroups as { metrics: object }[]).map((g) => Object.keys(g.metrics));
    expect(metricKeys(a)).toEqual(metricKeys(originalPlan));
  });

  it('reproduces the file byte for byte with Spark’s base path and sync marker', () => {
    const plan = parseClusteringRequested(bytes, name);
    const out = clusteringRequestedBytes(plan, 9, { basePath, syncMarker: bytes.subarray(bytes.length - 16) });
    expect(readAvroContainer(out).metadata['avro.schema']).toBe(readAvroContainer(bytes).metadata['avro.schema']);
    expect(out).toEqual(bytes);
  });

  it('writes table-relative paths without a base path, and reads them back the same', () => {
    const plan = parseClusteringRequested(bytes, name);
    const value = clusteringPlanToAvro(plan) as { inputGroups: { slices: { dataFilePath: string }[] }[] };
    const first = value.inputGroups[0]!.slices[0]!.dataFilePath;
    expect(first).toBe(plan.groups[0]!.slices[0]!.baseFile!.path);
    expect(first.startsWith('region=apac/')).toBe(true);
    expect(parseClusteringRequested(clusteringRequestedBytes(plan, 9), 'rel')).toEqual(plan);
  });
});

describe('clustering requested bytes', () => {
  const plan: ClusteringPlan = planClustering(
    [
      { partitionPath: '', fileId: 'f1-0', baseFile: { path: 'f1-0_0-1-1_001.parquet', sizeBytes: 3 << 20 }, logFiles: [] },
      { partitionPath: '', fileId: 'f2-0', baseFile: { path: 'f2-0_0-1-1_001.parquet', sizeBytes: 1 << 20 }, logFiles: [{ path: '.f2-0_001.log.1_0-1-1', sizeBytes: 4096 }] },
      { partitionPath: '', fileId: 'f3-0', logFiles: [{ path: '.f3-0_002.log.1_0-1-1', sizeBytes: 100 }] },
    ],
    new Set(),
    { sortColumns: ['ts', 'id'], layout: 'z-order' },
  )!;

  it('round-trips a lakelet plan with sort columns, layout, log files and a log-only slice', () => {
    const back = parseClusteringRequested(clusteringRequestedBytes(plan, 9), 'p');
    expect(back.strategyParams).toEqual({ 'hoodie.clustering.plan.strategy.sort.columns': 'ts,id', 'hoodie.layout.optimize.strategy': 'z-order' });
    expect(back.groups[0]!.metrics).toEqual(plan.groups[0]!.metrics);
    // Sizes are not part of a plan: they read back as 0.
    const strip = (p: ClusteringPlan) => p.groups.flatMap((g) => g.slices.map((s) => ({ ...s, baseFile: s.baseFile && { ...s.baseFile, sizeBytes: 0 }, logFiles: s.logFiles.map((l) => ({ ...l, sizeBytes: 0 })) })));
    expect(back.groups.flatMap((g) => g.slices)).toEqual(strip(plan));
    const value = clusteringPlanToAvro(plan) as { inputGroups: { slices: { dataFilePath: string; deltaFilePaths: string[] }[] }[] };
    const logOnly = value.inputGroups[0]!.slices.find((s) => s.deltaFilePaths[0] === '.f3-0_002.log.1_0-1-1')!;
    expect(logOnly.dataFilePath).toBe('');
  });

  it('uses the 0.14 schema (no missingSchedulePartitions) on v6 tables', () => {
    const bytes = clusteringRequestedBytes(plan, 6);
    expect(readAvroContainer(bytes).metadata['avro.schema']).toBe(JSON.stringify(REQUESTED_REPLACE_METADATA_SCHEMA));
    const back = parseClusteringRequested(bytes, 'v6');
    expect(back.missingSchedulePartitions).toBeUndefined();
    expect(back.groups.length).toBe(plan.groups.length);
    expect(readAvroContainer(clusteringRequestedBytes(plan, 8)).metadata['avro.schema']).toContain('missingSchedulePartitions');
  });

  it('prefixes the base path once, trailing slashes aside', () => {
    const value = clusteringPlanToAvro(plan, { basePath: 's3a://b/t/' }) as { inputGroups: { slices: { deltaFilePaths: string[] }[] }[] };
    expect(value.inputGroups[0]!.slices.flatMap((s) => s.deltaFilePaths)).toContain('s3a://b/t/.f2-0_001.log.1_0-1-1');
  });
});

describe('bad clustering plans', () => {
  const code = (f: () => unknown): string | undefined => {
    try {
      f();
    } catch (err) {
      return isLakeletError(err) ? `${err.code}:${String(err.context.path)}` : 'other';
    }
    return undefined;
  };
  const good = { inputGroups: [{ slices: [{ fileId: 'a', partitionPath: 'p', dataFilePath: 'p/a_1.parquet' }], numOutputFileGroups: 1, metrics: {} }], strategy: { strategyClassName: 'x', strategyParams: {} }, preserveHoodieMetadata: true };

  it.each([
    ['not a record', []],
    ['inputGroups not an array', { ...good, inputGroups: {} }],
    ['a group without slices', { ...good, inputGroups: [{ slices: [] }] }],
    ['a slice without fileId', { ...good, inputGroups: [{ slices: [{ partitionPath: 'p' }] }] }],
    ['a non-numeric metric', { ...good, inputGroups: [{ ...good.inputGroups[0], metrics: { TOTAL_IO_MB: 'x' } }] }],
    ['a non-string strategy param', { ...good, strategy: { strategyParams: { a: 1 } } }],
    ['a negative output count', { ...good, inputGroups: [{ ...good.inputGroups[0], numOutputFileGroups: -1 }] }],
  ])('%s → CORRUPT_FILE naming the file', (_what, value) => {
    expect(code(() => clusteringPlanFromAvro(value, 'x.clustering.requested'))).toBe('CORRUPT_FILE:x.clustering.requested');
  });

  it('accepts the good shape', () => {
    expect(clusteringPlanFromAvro(good, 'g').groups[0]!.slices[0]!.baseFile!.path).toBe('p/a_1.parquet');
  });

  it('refuses a requested file that is not a clustering (an insert overwrite)', () => {
    const overwrite = Object.entries(zipEntries('sample_table/cow/v9_txns_simple_nometa.zip')).find(([n]) => n.endsWith('.replacecommit.requested'))!;
    expect(code(() => parseClusteringRequested(overwrite[1], overwrite[0]))).toBe(`CORRUPT_FILE:${overwrite[0]}`);
  });
});
