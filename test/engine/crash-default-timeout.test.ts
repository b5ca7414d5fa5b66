// Crash tests with the DEFAULT heartbeat timeout (60 s) and a manual clock: a crashed writer looks alive
// until its heartbeat is a minute old. At every storage call of a copy-on-write and a merge-on-read upsert
// (`before`; `after` at the atomic creates): within the timeout the pending instant is never a completed
// commit, readers see the model before it, the next write succeeds without waiting the timeout out and
// without rolling the crashed write back, and `rollback()` never undoes a completed commit while the newer
// pending one exists; once the clock passes the timeout the next write rolls the crashed one back and
// leaves only committed files.
import { describe, expect, test } from 'vitest';
import { isLakeletError, openTable, Table, type Storage, type TableType, type WriteOptions } from '../../src/index.js';
import { manualClock } from '../../src/engine/clock.js';
import { CrashModel, mrow } from '../helpers/crash-model.js';
import { checkInventory, checkReads } from '../helpers/crash-oracle.js';
import { completedInstants, input, NEXT, standardSetup } from '../helpers/crash-harness.js';
import { memoryKind } from '../helpers/crash-stores.js';
import { describeError, faultyStorage, isInjectedFault } from '../helpers/storage-faults.js';

const TIMEOUT = 60_000;
/** Default timeout and services off (the services have their own crash cases). */
const DEFAULTS: WriteOptions = { bloomFilter: { numEntries: 100 }, rowGroupRows: 2, codec: 'UNCOMPRESSED', compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false }, workers: 0 };
const UPSERT = [mrow('a', 'x', 2, 10), mrow('c', 'y', 2, 30), mrow('f', 'y', 1, 60)];
const kind = memoryKind();

/** The pending write instants on the raw timeline (requested or inflight, no completed file). */
async function pendingWrites(storage: Storage): Promise<string[]> {
  const names = (await storage.list('.hoodie')).map((f) => f.path.slice(8));
  const done = await completedInstants(storage);
  const times = new Set(names.map((n) => /^(\d{17})\.(?:commit\.requested|deltacommit\.requested|deltacommit\.inflight|inflight)$/.exec(n)?.[1]).filter((t): t is string => t !== undefined));
  return [...times].filter((t) => ![...done].some((d) => d.startsWith(t))).sort();
}

for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as TableType[]) {
  describe(`crash at every storage call of an upsert with the default heartbeat timeout (${type})`, () => {
    test('within the timeout nothing is rolled back or waited out; after it, full recovery', { timeout: 600_000 }, async () => {
      const base = await kind.fresh();
      const model = new CrashModel(false);
      await standardSetup({ storage: base, model, options: DEFAULTS, marks: {} }, type);
      const latestGood = model.latestWrite()!;
      const methods: string[] = [];
      {
        const probe = faultyStorage(await kind.copy(base));
        for (const m of ['head', 'read', 'write', 'writeIfAbsent', 'list', 'delete'] as const) {
          const f = probe[m].bind(probe) as (...a: unknown[]) => Promise<unknown>;
          (probe as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => (methods.push(m), f(...a));
        }
        await (await openTable(probe)).upsert(UPSERT.map(input), { ...DEFAULTS, clock: manualClock(Date.now()) });
      }
      const violations: string[] = [];
      let sawPending = 0;
      for (const fault of ['before', 'after'] as const) {
        for (let n = 1; n <= methods.length; n++) {
          if (fault === 'after' && methods[n - 1] !== 'writeIfAbsent') continue;
          const label = `${type} upsert, fault ${fault} at call ${n}/${methods.length} (${methods[n - 1]})`;
          const clock = manualClock(Date.now());
          const options = { ...DEFAULTS, clock };
          const raw = await kind.copy(base);
          const faulty = faultyStorage(raw, n, fault);
          const outcome = await openTable(faulty).then((t) => t.upsert(UPSERT.map(input), options)).then((r) => ({ ok: true as const, r }), (err: unknown) => ({ ok: false as const, err }));
          if (!outcome.ok) expect(isInjectedFault(outcome.err, faulty), `${label}: ${describeError(outcome.err)}`).toBe(true);
          const landed = [...(await completedInstants(raw))].find((k) => /\.(commit|deltacommit)$/.test(k) && k.slice(0, 17) > latestGood)?.slice(0, 17);
          const expected = model.clone();
          if (landed) expected.upsert(UPSERT, landed);
          const pending = await pendingWrites(raw);
          await checkReads(raw, expected, { label: `${label}: after the crash`, type });
          if (!landed && pending.length > 0) {
            sawPending++;
            const crashed = pending.at(-1)!;
            // rollback() within the timeout, on a copy: never a completed commit while the pending one exists.
            const copy = await kind.copy(raw);
            const rbClock = manualClock(clock.now());
            const rb = await (await Table.open(copy, { ...options, clock: rbClock })).rollback().then((r) => ({ ok: true as const, r }), (err: unknown) => ({ ok: false as const, err }));
            if (rbClock.now() - clock.now() >= TIMEOUT) violations.push(`${label}: rollback() within the timeout waited ${rbClock.now() - clock.now()} ms (virtual)`);
            if (rb.ok && rb.r.rolledBack !== crashed) violations.push(`${label}: rollback() within the timeout rolled back ${rb.r.rolledBack}, not the pending ${crashed}`);
            if (!rb.ok && !isLakeletError(rb.err)) violations.push(`${label}: rollback() within the timeout failed: ${describeError(rb.err)}`);
            if (!rb.ok) expect((await openTable(copy)).commits.at(-1)?.requestedTime, `${label}: a refused rollback changed the commits`).toBe(latestGood);
            // The next write within the timeout: succeeds, leaves the (maybe live) pending write alone, and does
            // not wait the heartbeat timeout out on its leftovers.
            const from = clock.now();
            const r = await (await Table.open(raw, options)).upsert(NEXT.map(input), options).catch((err: unknown) => {
              throw new Error(`${label}: the next write within the timeout failed: ${describeError(err)}`, { cause: err });
            });
            if (clock.now() - from >= TIMEOUT) violations.push(`${label}: the next write waited ${clock.now() - from} ms (virtual) within the timeout`);
            expected.upsert(NEXT, r.instant);
            if (!(await pendingWrites(raw)).includes(crashed)) violations.push(`${label}: the next write within the timeout rolled the crashed write back (virtual time waited: ${clock.now() - from} ms)`);
            await checkReads(raw, expected, { label: `${label}: next write within the timeout`, type });
          }
          // Past the timeout: the next write rolls the crashed write back; nothing is left but committed files.
          clock.advance(TIMEOUT + 1000);
          const r2 = await (await Table.open(raw, options)).upsert([input(mrow('b', 'x', 20, 21))], options).catch((err: unknown) => {
            throw new Error(`${label}: the write after the timeout failed: ${describeError(err)}`, { cause: err });
          });
          expected.upsert([mrow('b', 'x', 20, 21)], r2.instant);
          expect(await pendingWrites(raw), `${label}: pending writes after the timeout`).toEqual([]);
          await checkReads(raw, expected, { label: `${label}: after the timeout`, type });
          await checkInventory(raw, `${label}: after the timeout`);
        }
      }
      expect(sawPending, 'crash points that left a pending write').toBeGreaterThan(5);
      expect(violations, `${type}: default-timeout outcomes`).toEqual([]);
    });
  });
}
