// The options and results of a model-based sequence (table-model.ts runSequence), and the seeded clock that
// makes a sequence's instant times the same on every run.
import type { Clock, Storage, TableType } from '../../src/index.js';
import { Random } from './random.js';

/** Options of `runSequence` (table-model.ts). */
export interface SequenceOptions {
  /** Operations per sequence. */
  operations: number;
  /** The (empty) store the table is created in (default: a new memoryStorage()). */
  storage?: Storage;
  /** The store to reopen the table from after each operation (default: the same object). */
  reopen?: () => Storage;
  /** Include the table services (compact, clean, archive, savepoint, restore) in the sequence (default true). */
  services?: boolean;
  /** Worker pool size of the table's writes (default: the runtime's default, 0 in Node). */
  workers?: number;
  /**
   * Hostile inputs (default true): partition values and record keys from table-model-checks.ts (slashes,
   * percents, `..`, spaces, emoji, the empty value; commas, colons, leading spaces) and duplicate-key inserts.
   * False: the plain `p0…p3` partitions and `k00…k39` keys.
   */
  hostile?: boolean;
  /** Table version of the created table (default 6); 8 and 9 write timeline layout 2 (with a metadata table only when `metadataTable`). */
  tableVersion?: 6 | 8 | 9;
  /** The table's clock (instant and completion times, heartbeats); default the system clock. See {@link seededClock}. */
  clock?: Clock;
  /**
   * Create the table with a metadata table (`tableVersion` 8 or 9): every write and service keeps it in step.
   * Default false (createTable's own default is true on v8/v9): the helper always passes it explicitly.
   */
  metadataTable?: boolean;
  /** Assert `validateTable(storage)` reports nothing after every operation (and after the table's creation). */
  validateEachStep?: boolean;
  /** The table type (default: drawn from the seed; the draw is made either way, so the sequence is the same). */
  type?: TableType;
  /**
   * Schema-evolving writes (table-model-schema.ts): the table starts with a nullable int column `cnt`, and
   * upserts now and then add the nullable column `extra` and promote `cnt` to long, then double. Default false
   * (the sequences of a seed stay as they were without it).
   */
  schemaEvolution?: boolean;
  /**
   * Upserts now and then carry a pre-commit validator (table-model-validators.ts): one the model expects to
   * reject must reject with ABORTED and change nothing. Default false.
   */
  validators?: boolean;
  /**
   * Clustering among the operations (table-model-clustering.ts): now and then `cluster()` rewrites every file
   * group, with and without sort columns, sometimes into several groups; the model does not change. Default
   * false (the sequences of a seed stay as they were without it).
   */
  clustering?: boolean;
}

/**
 * A clock for reproducible sequences: it starts at 2031-01-01 (after any real time the machine has, so a time
 * a service takes from the system clock instead is older than the timeline and the next time is the timeline's
 * latest + 1 ms) and each reading advances it by 0, 1 or 2 ms from a seeded stream — instants sharing a
 * millisecond come up as often as on a fast machine, the same way on every run. `sleep` advances it.
 */
export function seededClock(seed: number): Clock {
  const rnd = new Random(seed ^ 0x5eed);
  let t = Date.UTC(2031, 0, 1);
  return {
    now: () => (t += rnd.int(3)),
    sleep: async (ms) => {
      t += Math.max(0, ms);
    },
  };
}

/** What one sequence did, for assertions across sequences. */
export interface SequenceStats {
  type: TableType;
  compactions: number;
  cleans: number;
  archived: number;
  restores: number;
  /** Rollbacks and restores refused because an MDT compaction had folded in what they would undo. */
  refusedByMetadataCompaction: number;
  /** Completed compactions on the metadata table's timeline at the end (0 without one). */
  metadataCompactions: number;
  /** The data table's `hoodie.table.metadata.partitions` at the end (empty without a metadata table). */
  metadataPartitions: string[];
  /** Schema-evolving writes that committed (`schemaEvolution`). */
  evolutions: number;
  /** Upserts with a validator that passed, and ones it rejected (`validators`). */
  validated: number;
  rejected: number;
  /** Clusterings that completed (`clustering`). */
  clusterings: number;
}
