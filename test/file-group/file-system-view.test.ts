// FileSystemView, pure: hand-built listings and timelines checking hudi-format.md §4.2-4.3 — uncommitted
// files dropped, replaced groups hidden as of T, latest slice as of T, log attachment by base instant
// (layout 1) or by completion time (layout 2), as of a completion time (layout 2), log-only slices, junk
// ignored, read-optimized without logs.
import { describe, expect, it } from 'vitest';
import { FileSystemView, type ReplaceRecord } from '../../src/file-group/file-system-view.js';
import type { FileSlice } from '../../src/file-group/file-slice.js';
import type { FileInfo } from '../../src/storage/storage.js';
import { Timeline } from '../../src/timeline/timeline.js';

const file = (path: string, size = 100): FileInfo => ({ path, size, kind: 'file' });
const dir = (path: string): FileInfo => ({ path, size: 0, kind: 'directory' });
const base = (partition: string, fileId: string, instant: string, token = '0-1-2') => file(`${partition === '' ? '' : `${partition}/`}${fileId}_${token}_${instant}.parquet`);
const log = (partition: string, fileId: string, instant: string, version = 1, token = '0-1-2') => file(`${partition === '' ? '' : `${partition}/`}.${fileId}_${instant}.log.${version}_${token}`);

function view(files: FileInfo[], timelineNames: string[], layout: 1 | 2, replaced: ReplaceRecord[] = []): FileSystemView {
  return new FileSystemView({ files, timeline: Timeline.fromFileNames(timelineNames), timelineLayoutVersion: layout, replaced });
}

/** A compact picture of slices: `partition/fileId@baseInstant[base?] +log names`. */
function show(slices: FileSlice[]): string[] {
  return slices.map((s) => `${s.partitionPath}/${s.fileId}@${s.baseInstantTime}${s.baseFile ? '' : ' (no base)'}${s.logFiles.map((l) => ` +${l.instantTime}.${l.version}`).join('')}`);
}

describe('copy-on-write, layout 1', () => {
  const T1 = '20240418173550988';
  const T2 = '20240418173551906';
  const T3 = '20240418173552000';
  const files = [
    base('', 'a-0', T1, '0-182-253'),
    base('', 'a-0', T2, '0-203-274'),
    base('', 'a-0', T3), // written by an inflight commit
    base('', 'b-0', T3), // a new group of the inflight commit
    file('.hoodie/hoodie.properties'),
    file(`.hoodie/${T1}.commit`),
    file('.hoodie_partition_metadata'),
  ];
  const fsv = view(files, [`${T1}.commit`, `${T2}.commit.requested`, `${T2}.inflight`, `${T2}.commit`, `${T3}.commit.requested`, `${T3}.inflight`], 1);

  it('drops base files of uncommitted writes entirely', () => {
    expect(fsv.fileGroups().map((g) => [g.fileId, g.slices.map((s) => s.baseInstantTime)])).toEqual([['a-0', [T1, T2]]]);
  });

  it('the latest slice is the newest committed base file', () => {
    const slices = fsv.latestSlices();
    expect(show(slices)).toEqual([`/a-0@${T2}`]);
    expect(slices[0]?.baseFile).toEqual({ path: `a-0_0-203-274_${T2}.parquet`, name: `a-0_0-203-274_${T2}.parquet`, fileId: 'a-0', partitionPath: '', instantTime: T2, size: 100 });
  });

  it('time travel picks the slice with the greatest base instant ≤ T', () => {
    expect(show(fsv.latestSlices({ asOf: T2 }))).toEqual([`/a-0@${T2}`]);
    expect(show(fsv.latestSlices({ asOf: '20240418173551905' }))).toEqual([`/a-0@${T1}`]);
    expect(show(fsv.latestSlices({ asOf: T1 }))).toEqual([`/a-0@${T1}`]);
    expect(fsv.latestSlices({ asOf: '19700101000000' })).toEqual([]);
  });

  it('the non-partitioned table has the partition ""', () => {
    expect(fsv.partitionPaths()).toEqual(['']);
  });
});

describe('replaced file groups (insert overwrite, clustering)', () => {
  const C1 = '20240707001301554';
  const C2 = '20240707001302000';
  const R = '20240707001303088';
  const files = [
    base('10', 'old-10', C1), base('20', 'old-20', C1), base('30', 'old-30', C1),
    base('20', 'old-20', C2),
    base('10', 'new-0', R),
  ];
  const replaced: ReplaceRecord[] = [{ instantTime: R, partitionToReplaceFileIds: { '10': ['old-10'], '20': ['old-20'], '30': ['old-30'] } }];
  const fsv = view(files, [`${C1}.commit`, `${C2}.commit`, `${R}.replacecommit.requested`, `${R}.replacecommit.inflight`, `${R}.replacecommit`], 1, replaced);

  it('groups replaced at or before T are gone; the new group is the only one', () => {
    expect(show(fsv.latestSlices())).toEqual([`10/new-0@${R}`]);
    expect(show(fsv.latestSlices({ asOf: R }))).toEqual([`10/new-0@${R}`]);
  });

  it('before the replacecommit the old groups are still visible', () => {
    expect(show(fsv.latestSlices({ asOf: C2 }))).toEqual([`10/old-10@${C1}`, `20/old-20@${C2}`, `30/old-30@${C1}`]);
    expect(show(fsv.latestSlices({ asOf: C1 }))).toEqual([`10/old-10@${C1}`, `20/old-20@${C1}`, `30/old-30@${C1}`]);
  });

  it('replacedGroups as of T', () => {
    expect(fsv.replacedGroups(C2).size).toBe(0);
    expect(fsv.replacedGroups(R).size).toBe(3);
    expect(fsv.replacedGroups().size).toBe(3);
  });

  it('a replaced file id only hides the group in its own partition', () => {
    const v = view([base('10', 'same-0', C1), base('20', 'same-0', C1)], [`${C1}.commit`, `${R}.replacecommit`], 1, [{ instantTime: R, partitionToReplaceFileIds: { '10': ['same-0'] } }]);
    expect(show(v.latestSlices())).toEqual([`20/same-0@${C1}`]);
  });

  it('keeps all partitions in partitionPaths and honours a partition filter', () => {
    expect(fsv.partitionPaths()).toEqual(['10', '20', '30']);
    expect(show(fsv.latestSlices({ asOf: C2, partitionFilter: (p) => p !== '20' }))).toEqual([`10/old-10@${C1}`, `30/old-30@${C1}`]);
  });
});

describe('merge-on-read, layout 1: logs attach by the base instant in their name', () => {
  const B1 = '20250331030642808'; // first deltacommit: base files
  const D2 = '20250331030645735'; // deltacommit: log on B1's slice
  const C3 = '20250331030650000'; // compaction → commit: new base
  const D4 = '20250331030655000'; // deltacommit: log on C3's slice
  const P = 'city=sf';
  const files = [
    base(P, 'g-0', B1),
    log(P, 'g-0', B1, 2, '1-0-1'), // rollover / rollback command file
    log(P, 'g-0', B1, 1, '0-26-85'),
    base(P, 'g-0', C3),
    log(P, 'g-0', C3, 1),
    file(`${P}/.g-0_${B1}.log.1_0-26-85.crc`),
    file(`${P}/.g-0_${C3}.log.2_0-1-2.cdc`), // CDC logs are not data logs
  ];
  const fsv = view(files, [`${B1}.deltacommit`, `${D2}.deltacommit`, `${C3}.compaction.requested`, `${C3}.compaction.inflight`, `${C3}.commit`, `${D4}.deltacommit`], 1);

  it('groups logs with the slice their name points at, ordered by version', () => {
    const [g] = fsv.fileGroups();
    expect(g?.slices.map((s) => `${s.baseInstantTime}:${s.logFiles.map((l) => l.version).join(',')}`)).toEqual([`${B1}:1,2`, `${C3}:1`]);
  });

  it('latest slice is the compacted one with its log; as of before compaction the old one with its logs', () => {
    expect(show(fsv.latestSlices())).toEqual([`${P}/g-0@${C3} +${C3}.1`]);
    expect(show(fsv.latestSlices({ asOf: D2 }))).toEqual([`${P}/g-0@${B1} +${B1}.1 +${B1}.2`]);
  });

  it('read-optimized leaves the logs out', () => {
    expect(show(fsv.latestSlices({ baseFilesOnly: true }))).toEqual([`${P}/g-0@${C3}`]);
    expect(show(fsv.latestSlices({ asOf: D2, baseFilesOnly: true }))).toEqual([`${P}/g-0@${B1}`]);
  });

  it('a log without a base file forms a log-only slice keyed by its base instant', () => {
    const v = view([log('', 'solo-0', B1), log('', 'solo-0', B1, 2)], [`${B1}.deltacommit`], 1);
    expect(show(v.latestSlices())).toEqual([`/solo-0@${B1} (no base) +${B1}.1 +${B1}.2`]);
    expect(v.latestSlices({ baseFilesOnly: true })).toEqual([]);
  });
});

describe('merge-on-read, layout 2: logs attach by completion time', () => {
  const I1 = '20251220210108078'; // deltacommit writing base files, completed at …109593
  const D2 = '20251220210123755'; // deltacommit, log, completed before the compaction is requested
  const D3 = '20251220210125441'; // deltacommit requested BEFORE the compaction, completed AFTER its request
  const CP = '20251220210129235'; // compaction requested here, completed at …129883
  const D5 = '20251220210130911'; // deltacommit after the compaction
  const D6 = '20251220210131999'; // deltacommit still inflight
  const timeline = [
    `${I1}_20251220210109593.deltacommit`,
    `${D2}_20251220210124336.deltacommit`,
    `${D3}_20251220210129500.deltacommit`,
    `${CP}.compaction.requested`, `${CP}.compaction.inflight`, `${CP}_20251220210129883.commit`,
    `${D5}_20251220210131755.deltacommit`,
    `${D6}.deltacommit.requested`, `${D6}.deltacommit.inflight`,
  ];
  const P = 'city=chennai';
  const files = [
    dir(P),
    base(P, 'g-0', I1),
    log(P, 'g-0', D2),
    log(P, 'g-0', D3),
    base(P, 'g-0', CP),
    log(P, 'g-0', D5),
    log(P, 'g-0', D6), // uncommitted
    base(P, 'g-0', D6), // uncommitted
  ];
  const fsv = view(files, timeline, 2);

  it('a deltacommit completed after the compaction was requested lands in the new slice', () => {
    const [g] = fsv.fileGroups();
    expect(g?.slices.map((s) => `${s.baseInstantTime}:${s.logFiles.map((l) => l.instantTime).join(',')}`)).toEqual([`${I1}:${D2}`, `${CP}:${D3},${D5}`]);
    expect(show(fsv.latestSlices())).toEqual([`${P}/g-0@${CP} +${D3}.1 +${D5}.1`]);
  });

  it('carries the completion time on each log and drops logs of uncommitted deltacommits', () => {
    const logs = fsv.fileGroups().flatMap((g) => g.slices.flatMap((s) => s.logFiles));
    expect(logs.map((l) => [l.instantTime, l.completionTime])).toEqual([
      [D2, '20251220210124336'],
      [D3, '20251220210129500'],
      [D5, '20251220210131755'],
    ]);
  });

  it('as of T keeps only logs of deltacommits requested ≤ T', () => {
    expect(show(fsv.latestSlices({ asOf: CP }))).toEqual([`${P}/g-0@${CP} +${D3}.1`]);
    expect(show(fsv.latestSlices({ asOf: D2 }))).toEqual([`${P}/g-0@${I1} +${D2}.1`]);
    expect(show(fsv.latestSlices({ asOf: I1 }))).toEqual([`${P}/g-0@${I1}`]);
  });

  it('read-optimized: base files only', () => {
    expect(show(fsv.latestSlices({ baseFilesOnly: true }))).toEqual([`${P}/g-0@${CP}`]);
  });

  it('completed by T: the base of a compaction completed after T is not chosen, its slice\'s logs completed by T are read on the slice before', () => {
    // …129600: D3 completed (…129500), the compaction not yet (…129883).
    expect(show(fsv.latestSlices({ completedBy: '20251220210129600' }))).toEqual([`${P}/g-0@${I1} +${D2}.1 +${D3}.1`]);
    expect(show(fsv.latestSlices({ completedBy: '20251220210129883' }))).toEqual([`${P}/g-0@${CP} +${D3}.1`]);
    // D3 requested before T = …125500 but completed after it: not read.
    expect(show(fsv.latestSlices({ completedBy: '20251220210125500' }))).toEqual([`${P}/g-0@${I1} +${D2}.1`]);
    expect(show(fsv.latestSlices({ completedBy: '20251220210131755' }))).toEqual([`${P}/g-0@${CP} +${D3}.1 +${D5}.1`]);
    expect(fsv.latestSlices({ completedBy: '20251220210109000' })).toEqual([]);
    expect(show(fsv.latestSlices({ completedBy: '20251220210129600', baseFilesOnly: true }))).toEqual([`${P}/g-0@${I1}`]);
  });

  it('completed by T: a replacecommit counts from its completion, not its request', () => {
    const R = '20251220210126000';
    const v = view([base(P, 'g-0', I1), base(P, 'h-0', R)], [`${I1}_20251220210109593.deltacommit`, `${R}_20251220210130000.replacecommit`], 2, [{ instantTime: R, partitionToReplaceFileIds: { [P]: ['g-0'] } }]);
    expect(show(v.latestSlices({ completedBy: '20251220210129000' }))).toEqual([`${P}/g-0@${I1}`]);
    expect(show(v.latestSlices({ completedBy: '20251220210130000' }))).toEqual([`${P}/h-0@${R}`]);
    // By requested time the replacecommit counts from …126000.
    expect(show(v.latestSlices({ asOf: '20251220210129000' }))).toEqual([`${P}/h-0@${R}`]);
  });

  it('log-only slices (no base file yet) are keyed by the first log and hold later logs', () => {
    const v = view([log('', 'lo-0', D2), log('', 'lo-0', D5)], [`${D2}_20251220210124336.deltacommit`, `${D5}_20251220210131755.deltacommit`], 2);
    expect(show(v.latestSlices())).toEqual([`/lo-0@${D2} (no base) +${D2}.1 +${D5}.1`]);
    expect(show(v.latestSlices({ asOf: D2 }))).toEqual([`/lo-0@${D2} (no base) +${D2}.1`]);
    expect(v.latestSlices({ baseFilesOnly: true })).toEqual([]);
    expect(v.latestSlices({ asOf: I1 })).toEqual([]);
  });
});

describe('junk', () => {
  it('ignores everything that is not a committed parquet base file or a log', () => {
    const T = '20240418173550988';
    const files = [
      base('byteField=10', 'keep-0', T),
      file('.DS_Store'),
      file('byteField=10/.DS_Store'),
      file('byteField=10/.hoodie_partition_metadata'),
      file(`byteField=10/.keep-0_0-1-2_${T}.parquet.crc`),
      file(`byteField=10/orc-0_0-1-2_${T}.orc`),
      file(`byteField=10/part-00000-${T}.snappy.parquet`),
      file(`byteField=10/.keep-0_${T}.log.1_0-1-2.cdc`),
      file(`.hoodie/metadata/files/files-0000-0_0-1-2_${T}.parquet`),
      file(`.hoodie/.temp/${T}/byteField=10/keep-0_0-1-2_${T}.parquet.marker.CREATE`),
      file(`__MACOSX/byteField=10/x-0_0-1-2_${T}.parquet`),
      file('README.md'),
      dir('byteField=10'),
      dir(`byteField=10/keep-0_0-1-2_${T}.parquet`),
    ];
    const v = view(files, [`${T}.commit`], 1);
    expect(v.fileGroups().map((g) => g.fileId)).toEqual(['keep-0']);
    expect(show(v.latestSlices())).toEqual([`byteField=10/keep-0@${T}`]);
  });

  it('sorts the latest slices by partition then file id', () => {
    const T = '20240418173550988';
    const v = view([base('b', 'z-0', T), base('a', 'y-0', T), base('b', 'a-0', T), base('a', 'x-0', T)], [`${T}.commit`], 1);
    expect(show(v.latestSlices())).toEqual([`a/x-0@${T}`, `a/y-0@${T}`, `b/a-0@${T}`, `b/z-0@${T}`]);
  });
});
