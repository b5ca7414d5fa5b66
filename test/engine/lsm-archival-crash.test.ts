// A crash at every storage call of a layout-2 archival round that writes a layer-0 file, publishes it, deletes
// the instant files, compacts twice (layer 0 → 1, layer 1 → 2) and cleans the history: after each crash (the
// call failing before or after its effect with the writer gone, or a lost acknowledgement), the active timeline
// and the history together still list every completed write exactly once, reads are unchanged, and the next
// archival finishes the job.
import { describe, expect, test } from 'vitest';
import { engineContext } from '../../src/engine/context.js';
import { archive, type ArchiveRunOptions } from '../../src/engine/services/archival.js';
import { memoryStorage, openTable, type Storage } from '../../src/index.js';
import { COMMIT_LOCK_PATH } from '../../src/layout.js';
import { CRASH_MODELS, copyStorage, describeError, faultyStorage, isInjectedFault } from '../helpers/storage-faults.js';
import { ARCHIVABLE, archivedOf, FIXTURE_WRITES, grownFixture, HISTORY, namesIn, readsOf, requestedOf } from './lsm-archival-timeline.js';

const ADDED = 10;
const ALL_WRITES = FIXTURE_WRITES.length + ADDED;
const COMPACTION = { batchSize: 2 };

/** Limits that archive the two oldest instants (one when the replacecommit stops it). */
async function nextRound(storage: Storage): Promise<ArchiveRunOptions> {
  const counted = ALL_WRITES - (await archivedOf(storage)).completedWrites().length;
  return { keepMinCommits: counted - 2, keepMaxCommits: counted - 1, historyCompaction: COMPACTION };
}

/** Requested times of the completed writes in the active timeline and in the history. */
async function listed(storage: Storage): Promise<{ active: string[]; archived: string[] }> {
  const active = (await openTable(storage)).commits.map((c) => c.requestedTime);
  const archived = (await archivedOf(storage)).completedWrites().map((i) => i.requestedTime);
  return { active, archived };
}

const copy = (s: Storage) => copyStorage(s, (files) => memoryStorage({ files }));

describe('a crash at every storage call of a layout-2 archival (L0 file, 2 compactions, clean)', async () => {
  // Three rounds leave layer 1 with one file and layer 0 with one: the fourth writes, compacts twice and cleans.
  const base = await grownFixture(ADDED);
  for (let r = 0; r < 3; r++) await archive(engineContext(base), await nextRound(base));
  const round = await nextRound(base);
  const checked = ARCHIVABLE.slice(4).map(requestedOf);
  const expectedReads = await readsOf(base, checked);
  const all = (await listed(base));
  const every = [...all.archived, ...all.active].sort();

  const counting = faultyStorage(await copy(base));
  const done = await archive(engineContext(counting), round);
  const total = counting.calls;
  const historyDone = await namesIn(counting, HISTORY);

  test('the round itself archives the last archivable commit, compacts to layer 2 and cleans', () => {
    expect(done.map((i) => i.fileName)).toEqual(ARCHIVABLE.slice(6));
    expect(historyDone).toContain(`${requestedOf(ARCHIVABLE[0]!)}_${requestedOf(ARCHIVABLE[6]!)}_2.parquet`);
    expect(every).toHaveLength(ALL_WRITES);
    expect(total).toBeGreaterThan(30);
  });

  for (const model of [...CRASH_MODELS, 'lost-ack'] as const) {
    test(`${model} at each call: nothing lost or doubled, reads unchanged, the next archival completes`, { timeout: 600_000 }, async () => {
      let inBoth = 0;
      for (let n = 1; n <= total; n++) {
        const storage = await copy(base);
        const faulty = faultyStorage(storage, n, model);
        const error = await archive(engineContext(faulty), round).then(() => undefined, (e: unknown) => e);
        // Only the commit lock's release swallows a fault (the archival itself is done by then).
        if (error === undefined) expect(faulty.failedCall?.path ?? '', `call ${n}`).toMatch(/lakelet-commit/);
        else expect(isInjectedFault(error, faulty), `call ${n}: ${describeError(error)}`).toBe(true);
        const after = await listed(storage);
        if (after.active.some((t) => after.archived.includes(t))) inBoth++;
        expect([...new Set([...after.archived, ...after.active])].sort(), `every write listed (crash ${model} call ${n})`).toEqual(every);
        expect(new Set(after.archived).size).toBe(after.archived.length);
        expect(await readsOf(storage, checked), `reads (crash ${model} call ${n})`).toEqual(expectedReads);

        // The crashed writer's commit lock would expire after 15 s; the next archival should not wait for it here.
        await storage.delete(COMMIT_LOCK_PATH);
        await archive(engineContext(storage), round);
        const again = await listed(storage);
        expect(again.archived, `archived after the next archival (crash ${model} call ${n})`).toEqual(ARCHIVABLE.map(requestedOf));
        expect(again.active).toEqual(every.filter((t) => !again.archived.includes(t)));
        expect(await readsOf(storage, checked)).toEqual(expectedReads);
      }
      if (model !== 'before') expect(inBoth).toBeGreaterThan(0);
    });
  }
});
