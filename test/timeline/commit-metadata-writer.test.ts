// Commit metadata writer: every v6 fixture commit/deltacommit/replacecommit and inflight file re-serialized
// byte for byte, synthetic stats round-tripping through parseCommitMetadata, and the defaults Hudi expects.
import { describe, expect, it } from 'vitest';
import { LakeletError } from '../../src/errors.js';
import { parseCommitMetadata, type WriteStat } from '../../src/timeline/commit-metadata.js';
import { serializeCommitMetadata, serializeWorkloadProfile, type PartitionWorkload, type WriteStatInput } from '../../src/timeline/commit-metadata-writer.js';
import { fixtureBytes } from '../helpers/fixtures.js';
import { zipEntries, zipEntry } from '../helpers/zip-entry.js';

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

const V6_ZIPS = [
  'sample_table/cow/v6_nonpartitioned.zip',
  'sample_table/cow/v6_complexkeygen_hivestyle.zip',
  'sample_table/cow/v6_simplekeygen_hivestyle_no_metafields.zip',
  'sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip',
  'sample_table/mor/parquet/v6_nonpartitioned.zip',
  'sample_table/mor/parquet/v6_nonpartitioned_rollback.zip',
  'quickstart_trips_table/mor/avro/v6_trips_8i1u.zip',
];

/** Timeline files of the v6 fixtures whose names end with one of the suffixes. */
function timelineFiles(suffixes: string[]): [string, Uint8Array][] {
  const out: [string, Uint8Array][] = [];
  for (const zip of V6_ZIPS) {
    for (const [name, bytes] of Object.entries(zipEntries(zip))) {
      const m = /\/\.hoodie\/(\d{17}\.[a-z.]+)$/.exec(name);
      if (m?.[1] !== undefined && suffixes.some((s) => m[1]?.endsWith(s)) && bytes.length > 0) out.push([`${zip}:${m[1]}`, bytes]);
    }
  }
  return out;
}

/**
 * A record as a Map in the order its keys appear in the file's partitionToWriteStats (JS objects sort
 * integer-like keys such as "30", "20", "10"; Hudi writes Java HashMap order).
 */
function inFileOrder<T>(record: Record<string, T>, bytes: Uint8Array): Map<string, T> {
  const order = [...text(bytes).matchAll(/^ {4}"((?:[^"\\]|\\.)*)" : \[/gm)].map((m) => JSON.parse(`"${m[1] ?? ''}"`) as string);
  expect([...order].sort()).toEqual(Object.keys(record).sort());
  return new Map(order.map((k) => [k, record[k] as T]));
}

describe('serializeCommitMetadata on Hudi-written v6 files', () => {
  it('reproduces core-test-data/commit_metadata/v6_commit.json byte for byte (same object, same key order)', () => {
    const bytes = fixtureBytes('core-test-data/commit_metadata/v6_commit.json');
    const out = serializeCommitMetadata(parseCommitMetadata(bytes, 'v6_commit.json'));
    expect(JSON.parse(text(out))).toEqual(JSON.parse(text(bytes)));
    expect(text(out)).toBe(text(bytes));
  });

  const completed = timelineFiles(['.commit', '.deltacommit']);
  it('covers COW and MOR commits', () => expect(completed.length).toBeGreaterThanOrEqual(12));
  it.each(completed)('reproduces %s byte for byte', (name, bytes) => {
    const md = parseCommitMetadata(bytes, name);
    expect(JSON.parse(text(serializeCommitMetadata(md)))).toEqual(JSON.parse(text(bytes)));
    const out = serializeCommitMetadata({ ...md, partitionToWriteStats: inFileOrder(md.partitionToWriteStats, bytes) });
    expect(text(out)).toBe(text(bytes));
  });

  it('reproduces the INSERT_OVERWRITE_TABLE replacecommit (same object; same bytes with the map order as a Map)', () => {
    const zip = 'sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip';
    const bytes = zipEntry(zip, '.hoodie/20240707001303088.replacecommit');
    const md = parseCommitMetadata(bytes, 'replacecommit');
    const out = serializeCommitMetadata(md);
    expect(JSON.parse(text(out))).toEqual(JSON.parse(text(bytes)));
    // JS objects put integer-like keys ("30", "20", "10") in ascending order; a Map keeps Hudi's hash order.
    const order = ['30', '20', '10'];
    const ordered = serializeCommitMetadata({
      ...md,
      partitionToReplaceFileIds: new Map(order.map((p) => [p, md.partitionToReplaceFileIds[p] ?? []])),
    });
    expect(text(ordered)).toBe(text(bytes));
  });
});

describe('serializeWorkloadProfile', () => {
  const inflights = timelineFiles(['.inflight']);
  it('covers .inflight, .deltacommit.inflight and .replacecommit.inflight files', () => {
    expect(inflights.some(([n]) => /\d\.inflight$/.test(n))).toBe(true);
    expect(inflights.some(([n]) => n.endsWith('.deltacommit.inflight'))).toBe(true);
    expect(inflights.some(([n]) => n.endsWith('.replacecommit.inflight'))).toBe(true);
  });
  it.each(inflights)('reproduces %s byte for byte from its planned counts', (name, bytes) => {
    const md = parseCommitMetadata(bytes, name);
    const partitions = new Map<string, PartitionWorkload>();
    for (const [p, stats] of inFileOrder(md.partitionToWriteStats, bytes)) {
      const [first, ...groups] = stats;
      expect(first?.fileId).toBe('');
      partitions.set(p, {
        numInserts: first?.numInserts ?? 0,
        fileGroups: groups.map((g) => ({ fileId: g.fileId, prevCommit: g.prevCommit, numUpdateWrites: g.numUpdateWrites, numInserts: g.numInserts })),
      });
    }
    expect(text(serializeWorkloadProfile({ operationType: md.operationType ?? '', partitions }))).toBe(text(bytes));
  });

  it('writes a "" insert stat then one stat per file group, paths and partition paths null', () => {
    const out = JSON.parse(text(serializeWorkloadProfile({
      operationType: 'UPSERT',
      partitions: { 'city=x': { numInserts: 5, fileGroups: [{ fileId: 'g-0', prevCommit: '20240101000000000', numUpdateWrites: 2 }] } },
    }))) as { partitionToWriteStats: Record<string, Record<string, unknown>[]>; extraMetadata: object; operationType: string };
    const stats = out.partitionToWriteStats['city=x'] ?? [];
    expect(stats.map((s) => [s.fileId, s.prevCommit, s.numInserts, s.numUpdateWrites, s.path, s.partitionPath, s.runtimeStats]))
      .toEqual([['', 'null', 5, 0, null, null, null], ['g-0', '20240101000000000', 0, 2, null, null, null]]);
    expect(out.extraMetadata).toEqual({});
    expect(out.operationType).toBe('UPSERT');
  });
});

describe('serializeCommitMetadata from lakelet values', () => {
  const base: WriteStatInput = {
    fileId: 'f1-0',
    path: 'p=1/f1-0_0-0-0_20250101000000000.parquet',
    partitionPath: 'p=1',
    numWrites: 10,
    numDeletes: 1,
    numUpdateWrites: 3,
    numInserts: 7,
    totalWriteBytes: 1234,
    fileSizeInBytes: 1234,
  };
  const log: WriteStatInput = {
    fileId: 'f1-0',
    path: 'p=1/.f1-0_20250101000000000.log.2_0-0-0',
    partitionPath: 'p=1',
    prevCommit: '20250101000000000',
    numWrites: 2,
    numDeletes: 1,
    numUpdateWrites: 1,
    numInserts: 0,
    totalWriteBytes: 300,
    fileSizeInBytes: 300,
    baseFile: 'f1-0_0-0-0_20250101000000000.parquet',
    logFiles: ['.f1-0_20250101000000000.log.1_0-0-0', '.f1-0_20250101000000000.log.2_0-0-0'],
    totalLogBlocks: 1,
  };

  it('fills every HoodieWriteStat field in Hudi order with defaults ("null" prevCommit, zero runtime stats)', () => {
    const out = JSON.parse(text(serializeCommitMetadata({ partitionToWriteStats: { 'p=1': [base] }, operationType: 'INSERT' }))) as {
      partitionToWriteStats: Record<string, Record<string, unknown>[]>;
    };
    const stat = out.partitionToWriteStats['p=1']?.[0] ?? {};
    expect(Object.keys(stat)).toEqual([
      'fileId', 'path', 'cdcStats', 'prevCommit', 'numWrites', 'numDeletes', 'numUpdateWrites', 'numInserts',
      'totalWriteBytes', 'totalWriteErrors', 'tempPath', 'partitionPath', 'totalLogRecords', 'totalLogFilesCompacted',
      'totalLogSizeCompacted', 'totalUpdatedRecordsCompacted', 'totalLogBlocks', 'totalCorruptLogBlock',
      'totalRollbackBlocks', 'fileSizeInBytes', 'minEventTime', 'maxEventTime', 'runtimeStats',
    ]);
    expect(stat).toMatchObject({ prevCommit: 'null', cdcStats: null, tempPath: null, totalWriteErrors: 0, minEventTime: null });
    expect(stat.runtimeStats).toEqual({ totalScanTime: 0, totalUpsertTime: 0, totalCreateTime: 0 });
  });

  it('writes log writes as HoodieDeltaWriteStat (log version from the path, recordsStats {val: null})', () => {
    const out = JSON.parse(text(serializeCommitMetadata({ partitionToWriteStats: { 'p=1': [log] }, operationType: 'UPSERT' }))) as {
      partitionToWriteStats: Record<string, Record<string, unknown>[]>;
    };
    const stat = out.partitionToWriteStats['p=1']?.[0] ?? {};
    expect(Object.keys(stat).slice(23)).toEqual(['logVersion', 'logOffset', 'baseFile', 'logFiles', 'recordsStats']);
    expect(stat).toMatchObject({ logVersion: 2, logOffset: 0, baseFile: log.baseFile, logFiles: log.logFiles, recordsStats: { val: null }, totalLogBlocks: 1 });
  });

  it('round-trips through parseCommitMetadata', () => {
    const md = {
      partitionToWriteStats: { 'p=1': [base, log], 'p=2': [{ ...base, fileId: 'f2-0', partitionPath: 'p=2', prevCommit: '20240101000000000' }] },
      compacted: false,
      extraMetadata: { schema: '{"type":"record","name":"r","fields":[]}', 'x.y': 'a "quoted"\tvalue\u0001' },
      operationType: 'UPSERT',
    };
    const parsed = parseCommitMetadata(serializeCommitMetadata(md), 'x.deltacommit');
    expect(parsed.operationType).toBe('UPSERT');
    expect(parsed.compacted).toBe(false);
    expect(parsed.extraMetadata).toEqual(md.extraMetadata);
    expect(parsed.partitionToReplaceFileIds).toEqual({});
    const fields = ['fileId', 'path', 'partitionPath', 'prevCommit', 'numWrites', 'numDeletes', 'numUpdateWrites', 'numInserts', 'totalWriteBytes', 'fileSizeInBytes', 'logFiles', 'baseFile'] as const;
    const pick = (s: WriteStat | WriteStatInput | undefined) => Object.fromEntries(fields.map((f) => [f, s?.[f]]));
    const [p1, p2] = parsed.partitionToWriteStats['p=1'] ?? [];
    expect(pick(p1)).toEqual(pick({ ...base, prevCommit: 'null', logFiles: [], baseFile: undefined }));
    expect(pick(p2)).toEqual(pick(log));
    expect(p2?.raw.totalLogBlocks).toBe(1);
    expect(parsed.partitionToWriteStats['p=2']?.[0]?.prevCommit).toBe('20240101000000000');
  });

  it('escapes control characters the way Jackson does (upper-case \\u00XX)', () => {
    const out = text(serializeCommitMetadata({ partitionToWriteStats: {}, extraMetadata: { k: 'a\u001fb\nc"\\' }, operationType: 'INSERT' }));
    expect(out).toContain('"k" : "a\\u001Fb\\nc\\"\\\\"');
    expect(out).toContain('"partitionToWriteStats" : { }');
  });

  it('writes partitionToReplaceFileIds for replace operations only (and when non-empty)', () => {
    const keys = (md: Parameters<typeof serializeCommitMetadata>[0]): string[] => Object.keys(JSON.parse(text(serializeCommitMetadata(md))) as object);
    expect(keys({ partitionToWriteStats: {}, operationType: 'UPSERT', partitionToReplaceFileIds: {} })).toEqual(['partitionToWriteStats', 'compacted', 'extraMetadata', 'operationType']);
    expect(keys({ partitionToWriteStats: {}, operationType: 'INSERT_OVERWRITE' })).toContain('partitionToReplaceFileIds');
    expect(keys({ partitionToWriteStats: {}, operationType: 'UPSERT', partitionToReplaceFileIds: { a: ['x-0'] } })).toContain('partitionToReplaceFileIds');
    expect(keys({ partitionToWriteStats: {}, operationType: 'CLUSTER', replaceCommit: false })).not.toContain('partitionToReplaceFileIds');
    const parsed = parseCommitMetadata(serializeCommitMetadata({ partitionToWriteStats: {}, operationType: 'INSERT_OVERWRITE', partitionToReplaceFileIds: { a: ['x-0', 'y-0'] } }), 'r');
    expect(parsed.partitionToReplaceFileIds).toEqual({ a: ['x-0', 'y-0'] });
  });

  it('defaults operationType to UNKNOWN and compacted to false; keeps compacted=true', () => {
    const out = JSON.parse(text(serializeCommitMetadata({ partitionToWriteStats: {}, compacted: true }))) as Record<string, unknown>;
    expect(out).toMatchObject({ operationType: 'UNKNOWN', compacted: true, extraMetadata: {} });
  });

  it('rejects non-finite counters with INVALID_ARGUMENT', () => {
    const codeOf = (f: () => unknown): string | undefined => {
      try {
        f();
      } catch (err) {
        return err instanceof LakeletError ? err.code : 'not a LakeletError';
      }
      return undefined;
    };
    expect(codeOf(() => serializeCommitMetadata({ partitionToWriteStats: { '': [{ ...base, numWrites: Number.NaN }] } }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => serializeCommitMetadata({ partitionToWriteStats: { '': [{ ...base, fileSizeInBytes: Number.POSITIVE_INFINITY }] } }))).toBe('INVALID_ARGUMENT');
  });
});
