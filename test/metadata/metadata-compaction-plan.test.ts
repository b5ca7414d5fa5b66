// When an MDT compaction is due (deltacommits counted by completion after the last compaction's instant, blocked
// by any pending MDT or data instant) and the operation of one MDT slice (Java's metrics), on hand-built timelines.
import { describe, expect, test } from 'vitest';
import { metadataCompactedBaseFileName, metadataCompactionDue, metadataCompactionOperation, metadataCompactionOperations } from '../../src/metadata/metadata-compaction-plan.js';
import type { MetadataFileSlice } from '../../src/metadata/metadata-file-slices.js';
import { Timeline } from '../../src/timeline/timeline.js';

const dc = (t: string, c: string) => [`${t}.deltacommit.requested`, `${t}.deltacommit.inflight`, `${t}_${c}.deltacommit`];
const t = (n: number) => `2025010100000${String(n).padStart(4, '0')}`;

describe('metadataCompactionDue', () => {
  const data = Timeline.fromFileNames([]);
  test('counts deltacommits; due at the threshold', () => {
    const mdt = Timeline.fromFileNames([...dc('00000000000000000', t(1)), ...dc(t(2), t(3)), ...dc(t(4), t(5))]);
    expect(metadataCompactionDue(mdt, data, 3)).toEqual({ due: true, deltaCommitsSinceCompaction: 3 });
    expect(metadataCompactionDue(mdt, data, 4)).toEqual({ due: false, reason: 'too-few-deltacommits', deltaCommitsSinceCompaction: 3 });
  });
  test('after a compaction X, a deltacommit requested before X but completed after it counts (its logs sit on X)', () => {
    const mdt = Timeline.fromFileNames([...dc(t(1), t(2)), ...dc(t(3), t(9)), `${t(4)}.compaction.requested`, `${t(4)}.compaction.inflight`, `${t(4)}_${t(5)}.commit`, ...dc(t(6), t(7))]);
    expect(metadataCompactionDue(mdt, data, 10).deltaCommitsSinceCompaction).toBe(2);
  });
  test('a pending MDT instant or data instant blocks it', () => {
    const mdt = Timeline.fromFileNames([...dc(t(1), t(2)), `${t(3)}.deltacommit.requested`]);
    expect(metadataCompactionDue(mdt, data, 1)).toMatchObject({ due: false, reason: 'metadata-instant-pending', instant: t(3) });
    const done = Timeline.fromFileNames(dc(t(1), t(2)));
    const pendingData = Timeline.fromFileNames([`${t(8)}.commit.requested`]);
    expect(metadataCompactionDue(done, pendingData, 1)).toMatchObject({ due: false, reason: 'data-instant-pending', instant: t(8) });
  });
});

describe('metadataCompactionOperation', () => {
  const file = (name: string, instantTime: string, size: number) => ({ path: `.hoodie/metadata/files/${name}`, name, instantTime, size, completionTime: instantTime });
  test('a log-only slice: base instant of its first log, write estimate 120 MB', () => {
    const slice: MetadataFileSlice = { partition: 'record_index', fileId: 'record-index-0001-0', baseFile: undefined, logFiles: [file('.record-index-0001-0_00000000000000002.log.1_0-0-0', '00000000000000002', 80), file('.record-index-0001-0_20250101000000001.log.1_1-0-0', '20250101000000001', 14390)] };
    expect(metadataCompactionOperation(slice)).toEqual({
      baseInstantTime: '00000000000000002', dataFilePath: undefined, fileId: 'record-index-0001-0', partitionPath: 'record_index',
      deltaFilePaths: ['.record-index-0001-0_00000000000000002.log.1_0-0-0', '.record-index-0001-0_20250101000000001.log.1_1-0-0'],
      metrics: { TOTAL_LOG_FILES: 2, TOTAL_IO_MB: 120, TOTAL_IO_READ_MB: 0, TOTAL_LOG_FILES_SIZE: 14470, TOTAL_IO_WRITE_MB: 120 },
    });
  });
  test('a slice with a base: base instant and name, IO from its size', () => {
    const slice: MetadataFileSlice = { partition: 'files', fileId: 'files-0000-0', baseFile: file('files-0000-0_0-0-0_00000000000000000.hfile', '00000000000000000', 3 * 1024 * 1024), logFiles: [] };
    const op = metadataCompactionOperation(slice);
    expect(op.baseInstantTime).toBe('00000000000000000');
    expect(op.dataFilePath).toBe('files-0000-0_0-0-0_00000000000000000.hfile');
    expect(op.metrics).toEqual({ TOTAL_LOG_FILES: 0, TOTAL_IO_MB: 6, TOTAL_IO_READ_MB: 3, TOTAL_LOG_FILES_SIZE: 0, TOTAL_IO_WRITE_MB: 3 });
  });
  test('operations: partitions in order, groups by file id; base file names', () => {
    const s = (partition: string, fileId: string): MetadataFileSlice => ({ partition, fileId, baseFile: undefined, logFiles: [] });
    expect(metadataCompactionOperations([[s('files', 'files-0000-0')], [s('record_index', 'record-index-0001-0'), s('record_index', 'record-index-0000-0')]]).map((o) => o.fileId)).toEqual(['files-0000-0', 'record-index-0000-0', 'record-index-0001-0']);
    expect(metadataCompactedBaseFileName('col-stats-0001-0', 3, t(7))).toBe(`col-stats-0001-0_3-0-0_${t(7)}.hfile`);
  });
});
