// The latest slice of each MDT file group: base HFiles of completed instants only (a running compaction's base
// is ignored), logs of valid completed deltacommits joined by completion time (a log completing after a
// compaction's base instant belongs to the new slice), log order by completion time, invalid instants dropped.
import { describe, expect, it } from 'vitest';
import { latestMetadataSlices } from '../../src/metadata/metadata-file-slices.js';
import { Timeline } from '../../src/timeline/timeline.js';

const timeline = Timeline.fromFileNames([
  '00000000000000000_20240101000000100.deltacommit',
  '20240101000001000_20240101000001500.deltacommit',
  '20240101000002000_20240101000004000.deltacommit', // completes after the compaction below was requested
  '20240101000003000.compaction.requested',
  '20240101000003000_20240101000003500.commit',
  '20240101000005000_20240101000005100.deltacommit',
  '20240101000006000.compaction.requested', // pending compaction
  '20240101000007000.deltacommit.inflight', // failed or running write
  '20240101000008000_20240101000008100.deltacommit', // completed in the MDT but its data instant did not
]);
const valid = new Set(['20240101000001000', '20240101000002000', '20240101000005000', '20240101000007000']);

describe('latest metadata file slices', () => {
  it('picks the newest completed base and the logs completed since its instant', () => {
    const files = [
      'files/files-0000-0_0-1-1_00000000000000000.hfile',
      'files/.files-0000-0_00000000000000000.log.1_0-0-0',
      'files/.files-0000-0_20240101000001000.log.1_0-1-1',
      'files/.files-0000-0_20240101000002000.log.1_0-1-1',
      'files/files-0000-0_0-2-2_20240101000003000.hfile',
      'files/.files-0000-0_20240101000005000.log.1_0-1-1',
      'files/files-0000-0_0-3-3_20240101000006000.hfile',
      'files/.files-0000-0_20240101000007000.log.1_0-1-1',
      'files/.files-0000-0_20240101000008000.log.1_0-1-1',
    ].map((path) => ({ path, size: 10 }));
    const slices = latestMetadataSlices({ partition: 'files', files, timeline, isValidInstant: (t) => valid.has(t) || t.startsWith('0000') });
    expect(slices).toHaveLength(1);
    expect(slices[0]?.baseFile?.name).toBe('files-0000-0_0-2-2_20240101000003000.hfile');
    expect(slices[0]?.logFiles.map((l) => l.instantTime)).toEqual(['20240101000002000', '20240101000005000']);
    expect(slices[0]?.logFiles[0]?.completionTime).toBe('20240101000004000');
  });

  it('keeps log-only groups (all their valid logs) and sorts groups by file id', () => {
    const files = [
      'record_index/.record-index-0001-0_00000000000000000.log.1_0-0-0',
      'record_index/.record-index-0000-0_20240101000005000.log.1_1-1-1',
      'record_index/.record-index-0000-0_00000000000000000.log.1_0-0-0',
      'record_index/.record-index-0002-0_20240101000008000.log.1_0-0-0',
    ].map((path) => ({ path, size: 80 }));
    const slices = latestMetadataSlices({ partition: 'record_index', files, timeline, isValidInstant: (t) => valid.has(t) || t.startsWith('0000') });
    expect(slices.map((s) => [s.fileId, s.baseFile, s.logFiles.map((l) => l.instantTime)])).toEqual([
      ['record-index-0000-0', undefined, ['00000000000000000', '20240101000005000']],
      ['record-index-0001-0', undefined, ['00000000000000000']],
    ]);
  });
});
