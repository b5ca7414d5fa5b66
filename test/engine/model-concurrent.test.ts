// Concurrent model-based test (issue 9): two writers and a table-service runner on one merge-on-read and one
// copy-on-write table, interleaved at storage-call granularity by a seeded scheduler, 200 seeds each. The
// model is the set of writes that reported success; see test/helpers/concurrent-model.ts for the oracle.
// One seed with its full trace: LAKELET_CONCURRENT_SEED=5032 npx vitest run --project node <this file> -t MERGE_ON_READ
// (the coverage tests then fail on purpose: they need every seed).
import { describe, expect, test } from 'vitest';
import { runConcurrent, type ConcurrentRunResult } from '../helpers/concurrent-model.js';

const SEEDS = 200;
const GROUPS = 4;
const only = process.env.LAKELET_CONCURRENT_SEED === undefined ? undefined : Number(process.env.LAKELET_CONCURRENT_SEED);

for (const type of ['MERGE_ON_READ', 'COPY_ON_WRITE'] as const) {
  describe(`${type}: two writers and a service runner against the model`, () => {
    const seeds = only === undefined ? Array.from({ length: SEEDS }, (_, i) => 5000 + i) : [only];
    const all: ConcurrentRunResult[] = [];
    for (let g = 0; g < Math.min(GROUPS, seeds.length); g++) {
      const mine = seeds.filter((_, i) => i % GROUPS === g);
      test(`seeds ${mine[0]}… (${mine.length})`, { timeout: 300_000 }, async () => {
        const failed: string[] = [];
        for (const seed of mine) {
          const r = await runConcurrent(seed, type, { callSites: only !== undefined });
          all.push(r);
          if (r.problems.length > 0) {
            failed.push(`seed ${seed}:\n  ${r.problems.join('\n  ')}\n  operations:\n    ${r.outcomes.join('\n    ')}`);
            if (only !== undefined) console.log(r.trace.join('\n'));
          }
        }
        expect(failed, `${failed.length} of ${mine.length} seeds failed`).toEqual([]);
      });
    }
    test('the seeds exercised conflicts, concurrent successes and services', () => {
      expect(all.length, 'coverage needs every seed (LAKELET_CONCURRENT_SEED runs one)').toBe(SEEDS);
      expect(all.filter((r) => r.conflicts > 0).length).toBeGreaterThan(SEEDS / 10);
      expect(all.filter((r) => r.succeeded >= 4).length).toBeGreaterThan(SEEDS / 4);
      expect(all.filter((r) => r.services > 0).length).toBeGreaterThan(SEEDS / 2);
      expect(all.filter((r) => r.overlapping > 0).length, 'seeds where both writers committed concurrently').toBeGreaterThan(SEEDS / 4);
    });
  });
}

test('the same seed gives the same interleaving, trace and outcomes', async () => {
  for (const [seed, type] of [[5003, 'MERGE_ON_READ'], [5004, 'COPY_ON_WRITE']] as const) {
    const a = await runConcurrent(seed, type);
    const b = await runConcurrent(seed, type);
    expect(a.trace.length).toBeGreaterThan(50);
    expect(b.trace).toEqual(a.trace);
    expect(b.outcomes).toEqual(a.outcomes);
    // The actors really interleave: all three take turns, many times over.
    const actors = a.trace.map((line) => line.split(' ')[2]).filter((x) => x !== '-');
    expect(new Set(actors)).toEqual(new Set(['w1', 'w2', 'svc']));
    expect(actors.filter((x, i) => i > 0 && x !== actors[i - 1]).length).toBeGreaterThan(20);
    // And another seed interleaves differently.
    expect((await runConcurrent(seed + 1, type)).trace).not.toEqual(a.trace);
  }
});
