// Crash tests of clustering: a `table.cluster()` that fails at every storage call (fault models before, after,
// lost-ack). Clustering changes no record, so after each crash the table reads exactly as before (meta columns
// included, but the file name), `validateTable` finds nothing wrong, and the next cluster() and write complete —
// a replacecommit never points at missing files, an interrupted run is re-run from its plan. COW v6, MOR v9 (MDT).
import { describe, expect, test } from 'vitest';
import { manualClock } from '../../src/engine/clock.js';
import { memoryStorage, Table, validateTable, type Storage } from '../../src/index.js';
import { faultyStorage, isInjectedFault, describeError, type FaultModel } from '../helpers/storage-faults.js';
import { row, smallFilesTable, snapshot } from './clustering-helpers.js';

const MODELS: readonly FaultModel[] = ['before', 'after', 'lost-ack'];
const OPEN = { heartbeatTimeoutMs: 0, workers: 0, bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false } } as const;
const CLUSTER = { sortColumns: ['v'], targetFileSizeBytes: 4096, smallFileLimitBytes: 1 << 20, heartbeatTimeoutMs: 0 };

async function copy(source: Storage): Promise<Storage> {
  const files: [string, Uint8Array][] = [];
  for (const f of await source.list('', { recursive: true })) if (f.kind === 'file') files.push([f.path, await source.read(f.path)]);
  return memoryStorage({ files });
}

/** Completed replacecommits on the raw timeline. */
async function replacecommits(storage: Storage): Promise<string[]> {
  const names = [...(await storage.list('.hoodie')), ...(await storage.list('.hoodie/timeline'))].map((f) => f.path.split('/').at(-1)!);
  return names.filter((n) => /^\d{17}(_\d{17})?\.replacecommit$/.test(n)).sort();
}

for (const [type, version] of [['COPY_ON_WRITE', 6], ['MERGE_ON_READ', 9]] as const) {
  describe(`crash at every storage call of a clustering (${type} v${version})`, () => {
    test('every crash leaves the table readable as before, valid, and the next cluster and write complete', { timeout: 900_000 }, async () => {
      const { storage: base, table } = await smallFilesTable(type, version, 4, 2);
      if (type === 'MERGE_ON_READ') await table.upsert([{ ...row(1), ts: 2, s: 'updated' }]);
      const before = await snapshot(table);
      const replacedBefore = await replacecommits(base);
      // The fault-free run counts the calls.
      const counting = faultyStorage(await copy(base));
      await (await Table.open(counting, OPEN)).cluster(CLUSTER);
      const total = counting.calls;
      expect(total).toBeGreaterThan(10);
      const violations: string[] = [];
      let landedCount = 0;
      for (const model of MODELS) {
        for (let n = 1; n <= total; n++) {
          const raw = await copy(base);
          const faulty = faultyStorage(raw, n, model);
          const clock = manualClock(Date.now());
          const label = `${model} at call ${n}/${total}`;
          const result = await Table.open(faulty, { ...OPEN, clock }).then((t) => t.cluster({ ...CLUSTER, clock })).then(() => undefined, (err: unknown) => err);
          if (result !== undefined && !isInjectedFault(result, faulty)) violations.push(`${label}: not the injected fault: ${describeError(result)}`);
          if (faulty.failedCall === undefined) continue; // no call n on this path
          const landed = (await replacecommits(raw)).length > replacedBefore.length;
          if (landed) landedCount++;
          if (result === undefined && !landed) violations.push(`${label}: resolved but no replacecommit`);
          // Readable as before, valid (every file a completed commit names exists).
          const reopened = await Table.open(raw, { ...OPEN, clock });
          const rows = await snapshot(reopened).catch((err: unknown) => [`read failed: ${describeError(err)}`]);
          if (JSON.stringify(rows) !== JSON.stringify(before)) violations.push(`${label}: snapshot changed after the crash`);
          const check = await validateTable(raw);
          if (!check.ok) violations.push(`${label}: validate after the crash: ${JSON.stringify(check.problems).slice(0, 300)}`);
          // Recovery: cluster again (re-runs an interrupted plan), then a write.
          const again = await reopened.cluster({ ...CLUSTER, clock }).then(() => undefined, (err: unknown) => err);
          if (again !== undefined) violations.push(`${label}: the next cluster failed: ${describeError(again)}`);
          // No clustering is left pending: every plan completed as a replacecommit.
          const done = new Set((await replacecommits(raw)).map((r) => r.slice(0, 17)));
          const plans = [...(await raw.list('.hoodie')), ...(await raw.list('.hoodie/timeline'))].map((f) => f.path.split('/').at(-1)!).filter((x) => /^\d{17}\.(clustering|replacecommit)\.requested$/.test(x));
          for (const plan of plans) if (!done.has(plan.slice(0, 17))) violations.push(`${label}: clustering ${plan} still pending after recovery`);
          const w = await reopened.upsert([{ ...row(2), ts: 9, s: 'next' }], { ...OPEN, clock }).then(() => undefined, (err: unknown) => err);
          if (w !== undefined) violations.push(`${label}: the next write failed: ${describeError(w)}`);
          const after = await snapshot(reopened);
          if (after.length !== before.length) violations.push(`${label}: ${after.length} rows after recovery, expected ${before.length}`);
          const final = await validateTable(raw);
          if (!final.ok) violations.push(`${label}: validate after recovery: ${JSON.stringify(final.problems).slice(0, 300)}`);
        }
      }
      expect(violations).toEqual([]);
      expect(landedCount).toBeGreaterThan(0);
    });
  });
}
