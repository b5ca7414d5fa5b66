// The live-file check of the file-system view, pure: hand-built listings and write stats for layout 1 (logs
// keyed by their slice's base instant, also a pending compaction's) and layout 2 (logs keyed by their
// deltacommit's completion time); only the latest slice as of T counts, read-optimized checks base files only.
import { describe, expect, it } from 'vitest';
import type { CommittedWrite } from '../../src/file-group/committed-files.js';
import { FileSystemView } from '../../src/file-group/file-system-view.js';
import { LakeletError } from '../../src/errors.js';
import type { CommitMetadata, WriteStat } from '../../src/timeline/commit-metadata.js';
import type { FileInfo } from '../../src/storage/storage.js';
import { Timeline } from '../../src/timeline/timeline.js';

const file = (path: string): FileInfo => ({ path, size: 100, kind: 'file' });
const baseName = (fileId: string, instant: string) => `p/${fileId}_0-1-2_${instant}.parquet`;
const logName = (fileId: string, instant: string, version = 1) => `p/.${fileId}_${instant}.log.${version}_0-1-2`;

function stat(path: string, fileId = 'f-0'): WriteStat {
  return { fileId, path, partitionPath: 'p', prevCommit: undefined, numWrites: 1, numDeletes: 0, numUpdateWrites: 0, numInserts: 1, totalWriteBytes: 1, fileSizeInBytes: 1, logFiles: [], baseFile: undefined, raw: {} };
}
function write(instantTime: string, paths: string[], completionTime?: string): CommittedWrite {
  const metadata: CommitMetadata = { partitionToWriteStats: { p: paths.map((p) => stat(p)) }, partitionToReplaceFileIds: {}, compacted: false, extraMetadata: {}, operationType: 'UPSERT' };
  return { instantTime, completionTime, metadata };
}
function view(paths: string[], timeline: string[], layout: 1 | 2, committed: CommittedWrite[]): FileSystemView {
  return new FileSystemView({ files: paths.map(file), timeline: Timeline.fromFileNames(timeline), timelineLayoutVersion: layout, replaced: [], committed });
}
function missing(f: () => unknown): string | undefined {
  try {
    f();
  } catch (err) {
    if (err instanceof LakeletError && err.code === 'NOT_FOUND') return err.context.path as string;
    throw err;
  }
  return undefined;
}

describe('layout 2 (logs by completion time)', () => {
  const D1 = '20250101000000000', D1C = '20250101000000500';
  const D2 = '20250102000000000', D2C = '20250102000000500';
  const C3 = '20250103000000000', C3C = '20250103000000500';
  const D4 = '20250104000000000', D4C = '20250104000000500';
  const timeline = [`${D1}_${D1C}.deltacommit`, `${D2}_${D2C}.deltacommit`, `${C3}_${C3C}.commit`, `${D4}_${D4C}.deltacommit`];
  const committed = [write(D1, [baseName('f-0', D1)], D1C), write(D2, [logName('f-0', D2)], D2C), write(C3, [baseName('f-0', C3)], C3C), write(D4, [logName('f-0', D4)], D4C)];
  const all = [baseName('f-0', D1), logName('f-0', D2), baseName('f-0', C3), logName('f-0', D4)];

  it('everything present: no error', () => {
    expect(view(all, timeline, 2, committed).latestSlices().map((s) => s.logFiles.length)).toEqual([1]);
  });
  it('the latest log missing → NOT_FOUND naming it; read-optimized and as of the compaction pass', () => {
    const v = view(all.filter((p) => p !== logName('f-0', D4)), timeline, 2, committed);
    expect(missing(() => v.latestSlices())).toBe(logName('f-0', D4));
    expect(missing(() => v.latestSlices({ baseFilesOnly: true }))).toBeUndefined();
    expect(missing(() => v.latestSlices({ asOf: C3 }))).toBeUndefined();
  });
  it('a log of the compacted (older) slice missing is not a loss now, but is as of before the compaction', () => {
    const v = view(all.filter((p) => p !== logName('f-0', D2)), timeline, 2, committed);
    expect(missing(() => v.latestSlices())).toBeUndefined();
    expect(missing(() => v.latestSlices({ asOf: D2 }))).toBe(logName('f-0', D2));
  });
  it('the compacted base missing → NOT_FOUND naming it, also read-optimized', () => {
    const v = view(all.filter((p) => p !== baseName('f-0', C3)), timeline, 2, committed);
    expect(missing(() => v.latestSlices())).toBe(baseName('f-0', C3));
    expect(missing(() => v.latestSlices({ baseFilesOnly: true }))).toBe(baseName('f-0', C3));
  });
  it('a partition the query prunes is not checked', () => {
    const v = view(all.filter((p) => p !== baseName('f-0', C3)), timeline, 2, committed);
    expect(missing(() => v.latestSlices({ partitionFilter: (p) => p !== 'p' }))).toBeUndefined();
  });
});

describe('layout 1 (logs by base instant)', () => {
  const D1 = '20250101000000000', D2 = '20250102000000000', C3 = '20250103000000000', D4 = '20250104000000000';
  it('a log written onto a pending compaction (named after its instant) counts as live', () => {
    const timeline = [`${D1}.deltacommit`, `${D2}.deltacommit`, `${C3}.compaction.requested`, `${D4}.deltacommit`];
    const committed = [write(D1, [baseName('f-0', D1)]), write(D2, [logName('f-0', D1)]), write(D4, [logName('f-0', C3)])];
    const all = [baseName('f-0', D1), logName('f-0', D1), logName('f-0', C3)];
    expect(missing(() => view(all, timeline, 1, committed).latestSlices())).toBeUndefined();
    expect(missing(() => view(all.filter((p) => p !== logName('f-0', C3)), timeline, 1, committed).latestSlices())).toBe(logName('f-0', C3));
    expect(missing(() => view(all.filter((p) => p !== logName('f-0', D1)), timeline, 1, committed).latestSlices())).toBe(logName('f-0', D1));
  });
  it('a newer base file the listing holds (its commit archived from the metadata) satisfies the group', () => {
    const timeline = [`${D1}.commit`, `${D2}.commit`];
    const committed = [write(D1, [baseName('f-0', D1)])];
    expect(missing(() => view([baseName('f-0', D2)], timeline, 1, committed).latestSlices())).toBeUndefined();
  });
  it('every missing file is listed in the context', () => {
    const timeline = [`${D1}.deltacommit`, `${D2}.deltacommit`];
    const committed = [write(D1, [baseName('f-0', D1)]), write(D2, [logName('f-0', D1)])];
    try {
      view([], timeline, 1, committed).latestSlices();
      expect.fail('expected NOT_FOUND');
    } catch (err) {
      expect((err as LakeletError).context.missing).toEqual([baseName('f-0', D1), logName('f-0', D1)]);
      expect((err as LakeletError).message).toContain('1 more live file is missing');
    }
  });
});
