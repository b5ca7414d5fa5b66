// Pre-commit validators in model sequences (table-model.ts `validators`): an upsert now and then carries one
// built-in validator, and the model predicts from the batch and its own rows whether it rejects the write —
// notNull and expect over the batch's records after dedupe, rowCount over the snapshot the write would leave.
import { validators, type PreCommitValidator } from '../../src/index.js';

const { expect: expectRecords, notNull, rowCount } = validators;
import type { Random } from './random.js';
import type { Row, Sequence } from './table-model-sequence.js';

/** A validator for one upsert and whether the model expects it to reject the write. */
export interface ModelValidator {
  validator: PreCommitValidator;
  rejects: boolean;
  name: string;
}

/**
 * Draw a validator for the upsert of `batch` in `seq`'s current state. rowCount is drawn only while the model
 * holds one row per key (a non-deduplicating insert's copies aside), so the count it predicts is exact.
 */
export function pickValidator(rnd: Random, seq: Sequence, batch: readonly Row[]): ModelValidator {
  const deduped = [...seq.deduped(batch).values()];
  const kind = rnd.int(seq.hasCopies() ? 2 : 3);
  if (kind === 0) return { validator: notNull(['name']), rejects: deduped.some((r) => r.name === null), name: 'notNull(name)' };
  if (kind === 1) {
    // As in queries, a null value satisfies no comparison.
    return { validator: expectRecords('val >= 20'), rejects: deduped.some((r) => r.val === null || r.val < 20), name: 'expect(val >= 20)' };
  }
  const max = seq.model.size + rnd.int(3);
  const added = [...seq.deduped(batch).keys()].filter((k) => !seq.model.has(k)).length;
  return { validator: rowCount({ max }), rejects: seq.model.size + added > max, name: `rowCount(max ${max})` };
}
