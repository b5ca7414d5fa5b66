// Model-based test of copy-on-write writes: seeded random sequences of upsert / insert / delete /
// insert-overwrite / rollback with duplicate keys and partition moves, checked after every operation
// against a plain Map: the snapshot, time travel to every earlier commit, and a reopened table.
import { describe, test } from 'vitest';
import { runSequence } from '../helpers/cow-model.js';

const SEQUENCES = Number(process.env.LAKELET_MODEL_SEQUENCES ?? 200);
const OPERATIONS = 20;

describe('copy-on-write writes against a Map model', () => {
  const seeds = Array.from({ length: SEQUENCES }, (_, i) => 1000 + i);
  const groups = 10;
  for (let g = 0; g < groups; g++) {
    const mine = seeds.filter((_, i) => i % groups === g);
    test(`sequences ${mine[0]}… (${mine.length} × ${OPERATIONS} operations)`, { timeout: 600_000 }, async () => {
      for (const seed of mine) await runSequence(seed, { operations: OPERATIONS });
    });
  }
});
