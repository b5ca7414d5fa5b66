// Timeline file names of both layouts (hudi-format.md §3.2): requested/inflight/completed, the bare
// `<t>.inflight` of a COW write, layout-2 `<t>_<c>.<action>`, legacy 14-digit times, and junk → undefined.
import { describe, expect, it } from 'vitest';
import { completedAction, compareInstantTimes, INIT_INSTANT_TIME, parseInstantFileName, TIMELINE_ACTIONS, WRITE_ACTIONS } from '../../src/timeline/instant.js';

describe('parseInstantFileName, layout 1', () => {
  it.each([
    ['20240418173551906.commit', '20240418173551906', 'commit', 'COMPLETED'],
    ['20240418173551906.commit.requested', '20240418173551906', 'commit', 'REQUESTED'],
    ['20240418173551906.inflight', '20240418173551906', 'commit', 'INFLIGHT'],
    ['20240418173551906.commit.inflight', '20240418173551906', 'commit', 'INFLIGHT'],
    ['20250126040823628.deltacommit.requested', '20250126040823628', 'deltacommit', 'REQUESTED'],
    ['20250126040823628.deltacommit.inflight', '20250126040823628', 'deltacommit', 'INFLIGHT'],
    ['20250126040823628.deltacommit', '20250126040823628', 'deltacommit', 'COMPLETED'],
    ['20240707001303088.replacecommit.requested', '20240707001303088', 'replacecommit', 'REQUESTED'],
    ['20240707001303088.replacecommit', '20240707001303088', 'replacecommit', 'COMPLETED'],
    ['20250126040936578.rollback.inflight', '20250126040936578', 'rollback', 'INFLIGHT'],
    ['20250126040936578.rollback', '20250126040936578', 'rollback', 'COMPLETED'],
    ['20250126040936578.clean.requested', '20250126040936578', 'clean', 'REQUESTED'],
    ['20250126040936578.savepoint.inflight', '20250126040936578', 'savepoint', 'INFLIGHT'],
    ['20250126040936578.restore', '20250126040936578', 'restore', 'COMPLETED'],
    ['20251220210129235.compaction.requested', '20251220210129235', 'compaction', 'REQUESTED'],
  ] as const)('%s → %s %s %s', (name, time, action, state) => {
    expect(parseInstantFileName(name)).toEqual({ requestedTime: time, action, state, completionTime: undefined, fileName: name });
  });

  it('accepts legacy 14-digit instant times', () => {
    expect(parseInstantFileName('20240418173551.commit')).toMatchObject({ requestedTime: '20240418173551', action: 'commit', state: 'COMPLETED' });
    expect(parseInstantFileName('00000000000000.deltacommit.requested')).toMatchObject({ requestedTime: '00000000000000', state: 'REQUESTED' });
    expect(parseInstantFileName('20240418173551.inflight')).toMatchObject({ requestedTime: '20240418173551', action: 'commit', state: 'INFLIGHT' });
  });

  it('knows every timeline action', () => {
    for (const action of TIMELINE_ACTIONS) {
      expect(parseInstantFileName(`20240101000000000.${action}.requested`)?.action).toBe(action);
    }
  });
});

describe('parseInstantFileName, layout 2', () => {
  it.each([
    ['20251220210129235_20251220210129883.commit', 'commit'],
    ['20251220210125441_20251220210126002.deltacommit', 'deltacommit'],
    ['20260307162454799_20260307162456001.replacecommit', 'replacecommit'],
    ['20260307162454799_20260307162456001.rollback', 'rollback'],
  ] as const)('%s is a completed %s with its completion time', (name, action) => {
    const [requested, completed] = name.split('.')[0]?.split('_') ?? [];
    expect(parseInstantFileName(name)).toEqual({ requestedTime: requested, action, state: 'COMPLETED', completionTime: completed, fileName: name });
  });

  it('a 14-digit completion time is accepted', () => {
    expect(parseInstantFileName('20251220210129235_20251220210129.commit')?.completionTime).toBe('20251220210129');
  });

  it('the underscore form is only valid for completed instants', () => {
    expect(parseInstantFileName('20251220210129235_20251220210129883.commit.requested')).toBeUndefined();
    expect(parseInstantFileName('20251220210129235_20251220210129883.commit.inflight')).toBeUndefined();
    expect(parseInstantFileName('20251220210129235_20251220210129883.inflight')).toBeUndefined();
  });
});

describe('parseInstantFileName, junk', () => {
  it.each([
    'hoodie.properties',
    'hoodie.properties.backup',
    'timeline',
    'history',
    'archived',
    '.aux',
    '.temp',
    '.schema',
    '.DS_Store',
    '._20251220210129235.compaction.requested',
    '.20240418173551906.commit.crc',
    '20240418173551906.commit.crc',
    '20240418173551906.commit.requested.crc',
    '20240418173551906',
    '20240418173551906.',
    '20240418173551906.requested',
    '20240418173551906.bogus',
    '20240418173551906.bogus.requested',
    '20240418173551906.commit.completed',
    '2024041817355190.commit',
    '202404181735519060.commit',
    '2024041817355a906.commit',
    '20240418173551906_.commit',
    '_20240418173551906.commit',
    '20240418173551906_2025.commit',
    '20240418173551906_x20240418173551906.commit',
    '',
  ])('%j → undefined', (name) => {
    expect(parseInstantFileName(name)).toBeUndefined();
  });
});

describe('instant helpers', () => {
  it('maps table-service actions to the action of their completed file', () => {
    expect(completedAction('compaction')).toBe('commit');
    expect(completedAction('clustering')).toBe('replacecommit');
    expect(completedAction('logcompaction')).toBe('deltacommit');
    expect(completedAction('deltacommit')).toBe('deltacommit');
    expect(completedAction('clean')).toBe('clean');
  });

  it('write actions are the ones that make data visible', () => {
    expect([...WRITE_ACTIONS].sort()).toEqual(['commit', 'deltacommit', 'replacecommit']);
  });

  it('compares instant times, padding legacy 14-digit ones', () => {
    expect(compareInstantTimes('20240418173550988', '20240418173551906')).toBeLessThan(0);
    expect(compareInstantTimes('20240418173551906', '20240418173550988')).toBeGreaterThan(0);
    expect(compareInstantTimes('20240418173551906', '20240418173551906')).toBe(0);
    expect(compareInstantTimes('20240418173551', '20240418173551000')).toBe(0);
    expect(compareInstantTimes('20240418173551', '20240418173551001')).toBeLessThan(0);
    expect(compareInstantTimes('20240418173552', '20240418173551999')).toBeGreaterThan(0);
    expect(compareInstantTimes('19700101000000', '20240418173550988')).toBeLessThan(0);
    expect(compareInstantTimes(INIT_INSTANT_TIME, '00000000000001')).toBeLessThan(0);
  });
});
