// Layout-2 timeline transitions (engine/commit/transitions.ts) and instant times (instant-request.ts): the
// completed file `<t>_<c>.<action>` with c from the clock, later than t and every time on the timeline; one
// completed file per instant (a second create is refused, `overwrite` rewrites the one there); a create whose
// answer was lost is recognised; the foreign-timezone rule.
import { describe, expect, test } from 'vitest';
import { parseTableConfig } from '../../src/config/table-config.js';
import { createTableProperties } from '../../src/config/table-properties.js';
import { manualClock } from '../../src/engine/clock.js';
import { completionTimeFor, latestTimelineTime, mintInstantTime } from '../../src/engine/commit/instant-request.js';
import { instantTransition } from '../../src/engine/commit/transitions.js';
import { memoryStorage, type Storage } from '../../src/index.js';
import { parseInstantFileName } from '../../src/timeline/instant.js';

const props = (extra: Record<string, string> = {}, tz = true) => {
  const text = createTableProperties({ name: 't', tableType: 'COPY_ON_WRITE', recordKeyFields: ['id'], orderingFields: [], partitionFields: [], keyGeneratorClass: 'org.apache.hudi.keygen.NonpartitionedKeyGenerator', keyGeneratorType: 'NON_PARTITION', hiveStylePartitioning: false, urlEncodePartitioning: false, populateMetaFields: true, tableVersion: 9, extra });
  return parseTableConfig(tz ? text : text.replace(/hoodie\.table\.timeline\.timezone=UTC\n/, ''));
};
const names = async (s: Storage) => (await s.list('.hoodie/timeline')).map((f) => f.path.slice('.hoodie/timeline/'.length)).sort();

describe('layout-2 completion', () => {
  test('the completed file is named <t>_<c> with c from the clock; a clock behind yields the time after the newest one', async () => {
    const storage = memoryStorage();
    const config = props();
    const t = instantTransition(storage, config, '20260601000000000', 'deltacommit');
    await storage.write('.hoodie/timeline/20260601000000500.commit.requested', new Uint8Array(0)); // a later request by another writer
    expect(await t.complete(new Uint8Array([1]), { clock: manualClock(Date.UTC(2026, 5, 1, 0, 0, 0, 200)) })).toBe(true);
    // 00:00:00.200 is not after the other writer's request at .500: the completion is .501.
    expect(await names(storage)).toEqual(['20260601000000000_20260601000000501.deltacommit', '20260601000000500.commit.requested']);
    expect(await t.completedPath()).toBe('.hoodie/timeline/20260601000000000_20260601000000501.deltacommit');
    expect(await t.exists('COMPLETED')).toBe(true);
    expect(await t.holds('COMPLETED', new Uint8Array([1]))).toBe(true);
    expect(() => t.path('COMPLETED')).toThrow(/completedPath/);
  });

  test('one completed file per instant: create refuses a second, overwrite rewrites the one there; remove finds it', async () => {
    const storage = memoryStorage();
    const t = instantTransition(storage, props(), '20260601000000000', 'rollback');
    const clock = manualClock(Date.UTC(2026, 5, 2));
    expect(await t.complete(new Uint8Array([1]), { clock })).toBe(true);
    clock.advance(1000);
    expect(await t.complete(new Uint8Array([2]), { clock })).toBe(false);
    expect(await t.complete(new Uint8Array([3]), { clock, mode: 'overwrite' })).toBe(true);
    const files = await names(storage);
    expect(files).toEqual(['20260601000000000_20260602000000000.rollback']);
    expect([...(await storage.read(`.hoodie/timeline/${files[0]!}`))]).toEqual([3]);
    await t.remove('COMPLETED');
    expect(await names(storage)).toEqual([]);
  });

  test('a compaction completes as commit and a clustering as replacecommit', async () => {
    const storage = memoryStorage();
    const clock = manualClock(Date.UTC(2026, 5, 2));
    await instantTransition(storage, props(), '20260601000000000', 'compaction').complete(new Uint8Array([1]), { clock });
    await instantTransition(storage, props(), '20260601000000001', 'clustering').complete(new Uint8Array([1]), { clock });
    expect((await names(storage)).map((n) => parseInstantFileName(n)?.action)).toEqual(['commit', 'replacecommit']);
  });

  test('a create whose answer was lost counts as done when landed says how to recognise it', async () => {
    const base = memoryStorage();
    let fail = true;
    const lossy: Storage = Object.assign(Object.create(base) as Storage, {
      writeIfAbsent: async (path: string, bytes: Uint8Array) => {
        const done = await base.writeIfAbsent(path, bytes);
        if (fail) throw new Error('connection reset');
        return done;
      },
    });
    const t = instantTransition(lossy, props(), '20260601000000000', 'savepoint');
    const clock = manualClock(Date.UTC(2026, 5, 2));
    // Without `landed` the error propagates (the caller checks for itself); with it, the landed file is ours.
    await expect(t.complete(new Uint8Array([7]), { clock })).rejects.toThrow('connection reset');
    const t2 = instantTransition(lossy, props(), '20260601000000001', 'savepoint');
    expect(await t2.complete(new Uint8Array([7]), { clock, landed: 'same-bytes' })).toBe(true);
    const t3 = instantTransition(lossy, props(), '20260601000000002', 'commit');
    expect(await t3.complete(new Uint8Array([8]), { clock, landed: 'exists' })).toBe(true);
    fail = false;
    expect(await t3.holds('COMPLETED', new Uint8Array([8]))).toBe(true);
  });
});

describe('layout-2 instant times', () => {
  const files = (names: string[]) => names.map((n) => parseInstantFileName(n)!);
  test('the latest time counts completion times too', () => {
    expect(latestTimelineTime(files(['20260101000000000_20260101000009000.commit', '20260101000005000.commit.requested']))).toBe('20260101000009000');
    expect(completionTimeFor('20260101000010000', files(['20260101000000000_20260101000009000.commit']), new Date(Date.UTC(2025, 0, 1)))).toBe('20260101000010001');
  });

  test('a table with timezone=UTC mints after the newest time; one without refuses when that time is ahead of our clock', () => {
    const timeline = files(['20260101000000000_20260301000000000.commit']);
    const behind = new Date(Date.UTC(2026, 1, 1));
    expect(mintInstantTime(props(), timeline, behind)).toBe('20260301000000001');
    expect(() => mintInstantTime(props({}, false), timeline, behind)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED', context: expect.objectContaining({ instant: '20260301000000000', field: 'hoodie.table.timeline.timezone' }) }));
    expect(mintInstantTime(props({}, false), timeline, new Date(Date.UTC(2026, 3, 1)))).toBe('20260401000000000');
  });

  test('a table without timezone=UTC whose newest time leads our clock by less than a minute (our own bumped times, skew) mints after it; by more, refuses', () => {
    const timeline = files(['20260301000000000_20260301000000005.commit']);
    // 5 ms ahead: a burst of our own instants, each minted past the newest.
    expect(mintInstantTime(props({}, false), timeline, new Date(Date.UTC(2026, 2, 1)))).toBe('20260301000000006');
    // 59.995 s ahead: still within the tolerance.
    expect(mintInstantTime(props({}, false), files(['20260301000000000_20260301000100000.commit']), new Date(Date.UTC(2026, 2, 1, 0, 0, 0, 5)))).toBe('20260301000100001');
    // 15 minutes ahead: a writer in a zone east of UTC.
    expect(() => mintInstantTime(props({}, false), files(['20260301000000000_20260301001500000.commit']), new Date(Date.UTC(2026, 2, 1)))).toThrow(expect.objectContaining({ code: 'UNSUPPORTED' }));
  });
});
