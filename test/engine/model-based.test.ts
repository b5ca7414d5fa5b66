// Model-based test of copy-on-write and merge-on-read tables: seeded random sequences of writes (with
// duplicate keys and partition moves) and table services (compaction, clean, archive, savepoint, restore,
// rollback), checked after every operation against a plain Map (see test/helpers/table-model.ts).
import { describe, expect, test } from 'vitest';
import { runSequence, type SequenceStats } from '../helpers/table-model.js';

const SEQUENCES = Number(process.env.LAKELET_MODEL_SEQUENCES ?? 200);
const OPERATIONS = 20;

describe('tables against a Map model', () => {
  const seeds = Array.from({ length: SEQUENCES }, (_, i) => 1000 + i);
  const groups = 10;
  const all: SequenceStats[] = [];
  for (let g = 0; g < groups; g++) {
    const mine = seeds.filter((_, i) => i % groups === g);
    test(`sequences ${mine[0]}… (${mine.length} × ${OPERATIONS} operations)`, { timeout: 600_000 }, async () => {
      for (const seed of mine) all.push(await runSequence(seed, { operations: OPERATIONS }));
    });
  }
  test('the sequences exercised both table types and every service', () => {
    expect(all.length).toBe(SEQUENCES);
    if (SEQUENCES < 50) return;
    expect(all.filter((s) => s.type === 'MERGE_ON_READ').length).toBeGreaterThan(SEQUENCES / 4);
    expect(all.filter((s) => s.type === 'COPY_ON_WRITE').length).toBeGreaterThan(SEQUENCES / 4);
    for (const k of ['compactions', 'cleans', 'archived', 'restores'] as const) expect(all.filter((s) => s[k] > 0).length, k).toBeGreaterThan(5);
  });
});
