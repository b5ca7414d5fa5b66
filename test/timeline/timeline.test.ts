// Timeline: instants collapsed to their latest state, ordered by requested time; completed writes
// (compaction → commit, clustering → replacecommit), pending instants, lookups by requested time.
import { describe, expect, it } from 'vitest';
import { Timeline } from '../../src/timeline/timeline.js';

// The v8_trips_8i3u1d fixture's timeline names, shuffled, with junk mixed in and the completed files of the
// indexing (…117766) and of deltacommit …127080 left out, so that those two are pending.
const V8_TRIPS = [
  '20251220210125441.deltacommit.inflight', '20251220210128625.deltacommit.requested',
  '20251220210129235_20251220210129883.commit', '20251220210123755.deltacommit.requested',
  '20251220210123755.deltacommit.inflight', '20251220210125441_20251220210126002.deltacommit',
  '20251220210108078.deltacommit.requested', '20251220210130911.deltacommit.inflight',
  '20251220210123755_20251220210124336.deltacommit', '20251220210129235.compaction.requested',
  '20251220210130911_20251220210131755.deltacommit', '20251220210108078.deltacommit.inflight',
  '20251220210117766.indexing.inflight', '20251220210117766.indexing.requested',
  '20251220210125441.deltacommit.requested', '20251220210130911.deltacommit.requested',
  '20251220210127080.deltacommit.requested', '20251220210128625_20251220210129197.deltacommit',
  '20251220210128625.deltacommit.inflight', '20251220210129235.compaction.inflight',
  '20251220210108078_20251220210109593.deltacommit',
  'history', 'hoodie.properties', '._20251220210129235.compaction.requested', '.DS_Store',
];

const times = (xs: readonly { requestedTime: string }[]) => xs.map((i) => i.requestedTime);

describe('Timeline.fromFileNames (layout 2 fixture timeline)', () => {
  const tl = Timeline.fromFileNames(V8_TRIPS);

  it('keeps one instant per requested time, in its latest state, ordered by time', () => {
    expect(tl.instants.map((i) => [i.requestedTime, i.action, i.state])).toEqual([
      ['20251220210108078', 'deltacommit', 'COMPLETED'],
      ['20251220210117766', 'indexing', 'INFLIGHT'],
      ['20251220210123755', 'deltacommit', 'COMPLETED'],
      ['20251220210125441', 'deltacommit', 'COMPLETED'],
      ['20251220210127080', 'deltacommit', 'REQUESTED'],
      ['20251220210128625', 'deltacommit', 'COMPLETED'],
      ['20251220210129235', 'commit', 'COMPLETED'],
      ['20251220210130911', 'deltacommit', 'COMPLETED'],
    ]);
  });

  it('keeps every timeline file (junk dropped), ordered by time then state', () => {
    expect(tl.files).toHaveLength(21);
    const compaction = tl.files.filter((f) => f.requestedTime === '20251220210129235').map((f) => `${f.action}:${f.state}`);
    expect(compaction).toEqual(['compaction:REQUESTED', 'compaction:INFLIGHT', 'commit:COMPLETED']);
  });

  it('completedWrites: commits, deltacommits and the compaction commit, oldest first', () => {
    expect(times(tl.completedWrites())).toEqual([
      '20251220210108078', '20251220210123755', '20251220210125441', '20251220210128625', '20251220210129235', '20251220210130911',
    ]);
    expect(tl.latestWrite()?.requestedTime).toBe('20251220210130911');
    expect(tl.latestWrite()?.completionTime).toBe('20251220210131755');
  });

  it('pending: the requested-only deltacommit and the inflight indexing', () => {
    expect(tl.pending().map((i) => `${i.requestedTime}.${i.action}.${i.state}`)).toEqual([
      '20251220210117766.indexing.INFLIGHT',
      '20251220210127080.deltacommit.REQUESTED',
    ]);
  });

  it('looks instants up by requested time', () => {
    expect(tl.completedAt('20251220210129235')?.completionTime).toBe('20251220210129883');
    expect(tl.completedAt('20251220210127080')).toBeUndefined();
    expect(tl.get('20251220210127080')?.state).toBe('REQUESTED');
    expect(tl.get('20991231235959999')).toBeUndefined();
    expect(tl.isCompletedWrite('20251220210129235')).toBe(true);
    expect(tl.isCompletedWrite('20251220210117766')).toBe(false);
    expect(tl.isCompletedWrite('20251220210127080')).toBe(false);
  });
});

describe('Timeline (layout 1)', () => {
  it('a rolled-back write has left the timeline; the rollback is completed but not a write', () => {
    const tl = Timeline.fromFileNames([
      '20250126040823628.deltacommit.requested', '20250126040823628.deltacommit.inflight', '20250126040823628.deltacommit',
      '20250126040936578.rollback.requested', '20250126040936578.rollback.inflight', '20250126040936578.rollback',
      '20250126060846931.deltacommit.requested', '20250126060846931.deltacommit.inflight', '20250126060846931.deltacommit',
    ]);
    expect(times(tl.completed())).toEqual(['20250126040823628', '20250126040936578', '20250126060846931']);
    expect(times(tl.completedWrites())).toEqual(['20250126040823628', '20250126060846931']);
    expect(tl.isCompletedWrite('20250126040936578')).toBe(false);
    expect(tl.completedAt('20250126040936578')?.action).toBe('rollback');
    expect(tl.pending()).toEqual([]);
  });

  it('a COW write in flight (`<t>.inflight`) is pending, not visible', () => {
    const tl = Timeline.fromFileNames(['20240418173550988.commit.requested', '20240418173550988.inflight', '20240418173550988.commit', '20240418173551906.commit.requested', '20240418173551906.inflight']);
    expect(times(tl.completedWrites())).toEqual(['20240418173550988']);
    expect(tl.pending().map((i) => [i.requestedTime, i.action, i.state])).toEqual([['20240418173551906', 'commit', 'INFLIGHT']]);
    expect(tl.latestWrite()?.requestedTime).toBe('20240418173550988');
    expect(tl.latestWrite()?.completionTime).toBeUndefined();
  });

  it('a v6 replacecommit and a clustering (replacecommit) are writes; clean, savepoint are not', () => {
    const tl = Timeline.fromFileNames([
      '20240707001301554.commit', '20240707001303088.replacecommit.requested', '20240707001303088.replacecommit.inflight',
      '20240707001303088.replacecommit', '20240707001304000.clean.requested', '20240707001304000.clean',
      '20240707001305000.savepoint.inflight', '20240707001305000.savepoint',
    ]);
    expect(tl.completedWrites().map((i) => i.action)).toEqual(['commit', 'replacecommit']);
    expect(tl.completed().map((i) => i.action)).toEqual(['commit', 'replacecommit', 'clean', 'savepoint']);
  });

  it('an empty table has no latest write', () => {
    const tl = Timeline.fromFileNames(['hoodie.properties', 'archived', '.temp']);
    expect(tl.instants).toEqual([]);
    expect(tl.latestWrite()).toBeUndefined();
    expect(tl.completedWrites()).toEqual([]);
  });

  it('orders mixed legacy and 17-digit times by time, not by text', () => {
    const tl = Timeline.fromFileNames(['20240418173552.commit', '20240418173551999.commit', '20240418173551.commit']);
    expect(times(tl.instants)).toEqual(['20240418173551', '20240418173551999', '20240418173552']);
  });

  it('can be built from parsed instants in any order', () => {
    const a = Timeline.fromFileNames(['2.commit'.padStart(25, '0')]);
    expect(a.instants).toEqual([]); // 23-digit time is not an instant
    const tl = new Timeline([
      { requestedTime: '20240101000000002', action: 'commit', state: 'COMPLETED', completionTime: undefined, fileName: 'x' },
      { requestedTime: '20240101000000001', action: 'commit', state: 'INFLIGHT', completionTime: undefined, fileName: 'y' },
      { requestedTime: '20240101000000002', action: 'commit', state: 'REQUESTED', completionTime: undefined, fileName: 'z' },
    ]);
    expect(tl.instants.map((i) => `${i.requestedTime}:${i.state}`)).toEqual(['20240101000000001:INFLIGHT', '20240101000000002:COMPLETED']);
  });
});

describe('completion times (layout 2)', () => {
  // Two overlapping deltacommits: A requested …100, completed …400; B requested …200, completed …300.
  const A = '20260101000000100';
  const B = '20260101000000200';
  const tl = Timeline.fromFileNames([`${A}.deltacommit.requested`, `${B}.deltacommit.requested`, `${B}_20260101000000300.deltacommit`, `${A}_20260101000000400.deltacommit`, '20260101000000500.deltacommit.inflight']);

  it('completionTimeOf: from the file name; undefined for pending or unknown times', () => {
    expect(tl.completionTimeOf(A)).toBe('20260101000000400');
    expect(tl.completionTimeOf('20260101000000500')).toBeUndefined();
    expect(tl.completionTimeOf('20260101000000999')).toBeUndefined();
    // Layout 1 has no completion time on disk: the requested time stands in.
    expect(Timeline.fromFileNames(['20240101000000001.commit']).completionTimeOf('20240101000000001')).toBe('20240101000000001');
  });

  it('writesCompletedIn: open-closed over completion times, ordered by requested time', () => {
    expect(times(tl.writesCompletedIn('20260101000000000', '20260101000000300'))).toEqual([B]);
    expect(times(tl.writesCompletedIn('20260101000000300', '20260101000000400'))).toEqual([A]);
    expect(times(tl.writesCompletedIn('20260101000000000', undefined))).toEqual([A, B]);
    expect(times(tl.writesCompletedIn('20260101000000400', undefined))).toEqual([]);
  });

  it('isCommittedWriteBy: committed and completed by the bound; archived writes always', () => {
    expect(tl.isCommittedWriteBy(B, '20260101000000300')).toBe(true);
    expect(tl.isCommittedWriteBy(A, '20260101000000300')).toBe(false);
    expect(tl.isCommittedWriteBy(A, '20260101000000400')).toBe(true);
    expect(tl.isCommittedWriteBy('20260101000000500', '20269999999999999')).toBe(false);
    expect(tl.isCommittedWriteBy('20250101000000000', '20260101000000000')).toBe(true); // older than the timeline
  });

  it('latestWriteCompletedBy: the write requested last among those completed by the bound', () => {
    expect(tl.latestWriteCompletedBy('20260101000000300')?.requestedTime).toBe(B);
    expect(tl.latestWriteCompletedBy('20260101000000400')?.requestedTime).toBe(B);
    expect(tl.latestWriteCompletedBy('20260101000000299')).toBeUndefined();
  });

  it('completionBound: a completed write\'s requested time stands for its completion time; other times as given', () => {
    expect(tl.completionBound(A)).toBe('20260101000000400');
    expect(tl.completionBound(B)).toBe('20260101000000300');
    expect(tl.completionBound('20260101000000250')).toBe('20260101000000250');
    expect(tl.completionBound('20260101000000500')).toBe('20260101000000500'); // pending: no completion yet
  });
});
