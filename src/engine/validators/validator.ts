// Pre-commit validators (Hudi's `hoodie.precommit.validators`): checks that run after a write's files are
// written and before its completed instant exists. The types a validator implements and the runner the write
// calls; a failure (or a validator that throws) is `ABORTED`, which rolls the attempt back.
import { LakeletError } from '../../errors.js';
import type { AvroRecordSchema } from '../../format/avro/schema.js';
import type { TaggedRecords } from '../../index/tagging.js';
import { isGlobalIndex, lookupKey } from '../../index/index-type.js';
import type { HoodieRecord } from '../../merge/hoodie-record.js';
import type { InflightWrite } from '../commit/commit-protocol.js';
import type { TableState } from '../table-state.js';
import { writeCommitMetadata, writeResult, type WriteCommit } from '../write/commit-write.js';
import type { WriteOperation } from '../write/operation.js';
import type { ResolvedWriteOptions } from '../write/write-options.js';
import { pendingSnapshot, type PendingSnapshot } from './pending-snapshot.js';

export type { PendingSnapshot };

/** What the write about to commit did (the counts its commit will record). */
export interface BatchStats {
  operation: WriteOperation;
  /** The pending instant time. */
  instant: string;
  inserted: number;
  updated: number;
  deleted: number;
  /** Partitions the write touched, sorted. */
  partitions: string[];
}

/** A validator's answer: `true` passes; a string is the failure message; `false` fails without one. */
export type ValidatorOutcome = boolean | string;

/** A user validator: `(batchStats, newSnapshot) => true | message` (or a promise of it); throwing fails too. */
export type PreCommitValidatorFunction = (batch: BatchStats, newSnapshot: PendingSnapshot) => ValidatorOutcome | Promise<ValidatorOutcome>;

/** One of the write's new records (deletes are not among them). */
export interface NewRecord {
  recordKey: string;
  partitionPath: string;
  /** Data fields (no meta fields), in lakelet's value model (long → bigint, …). */
  data: Record<string, unknown>;
}

/** What a validator object sees. */
export interface ValidationContext {
  batch: BatchStats;
  /** The table as it reads once the write commits. */
  snapshot: PendingSnapshot;
  /** The write's new records after dedupe (deletes excluded). */
  records: readonly NewRecord[];
  /** The write schema (data fields). */
  schema: AvroRecordSchema;
  /** True when record keys are unique across partitions (a global index), false when per partition (Hudi's HoodieKey). */
  globalKeys: boolean;
  /**
   * Which of `records` the table held before this write, looked up through the write's index (as an upsert tags;
   * the table is not read whole). Returns their keys as {@link uniquenessKey} gives them.
   */
  existingKeys(records: readonly NewRecord[]): Promise<Set<string>>;
}

/** A named validator (the built-ins are these); `validate` returns `true` or a failure message. */
export interface PreCommitValidatorObject {
  /** Named in the `ABORTED` message when the validator fails. */
  readonly name: string;
  validate(context: ValidationContext): ValidatorOutcome | Promise<ValidatorOutcome>;
}

/** A pre-commit validator: a named object (`notNull`, `unique`, `rowCount`, `expect`) or a user function. */
export type PreCommitValidator = PreCommitValidatorObject | PreCommitValidatorFunction;

/** The key two records collide on: the record key (global keys), else partition path and record key. */
export function uniquenessKey(globalKeys: boolean, record: Pick<NewRecord, 'recordKey' | 'partitionPath'>): string {
  return lookupKey(globalKeys, record.partitionPath, record.recordKey);
}

/** What the write hands the runner: the pending commit and a key lookup through its index. */
export interface PreCommitInput {
  state: TableState;
  inflight: InflightWrite;
  commit: WriteCommit;
  records: readonly HoodieRecord[];
  /** The write's options: its index (global or not) and clock. */
  options: Pick<ResolvedWriteOptions, 'index' | 'clock'>;
  /** Tag `records` as an upsert would (the table before this write). */
  lookup: (records: readonly HoodieRecord[]) => Promise<TaggedRecords>;
}

/** The display name of a validator: its `name`, a named function's name, else its position. */
export function validatorName(v: PreCommitValidator, position: number): string {
  if (typeof v === 'function') return v.name ? `${v.name}()` : `validators[${position}]`;
  return v.name;
}

/**
 * Run `validators` in order against the pending write; the first that fails (returns a message or `false`, or
 * throws) → `ABORTED` naming it and its message (a thrown error is the cause). Nothing is run after it.
 */
export async function runPreCommitValidators(validators: readonly PreCommitValidator[], input: PreCommitInput): Promise<void> {
  const { state, inflight, commit } = input;
  const instant = inflight.instantTime;
  const { stats } = writeResult(instant, commit, []);
  const batch: BatchStats = { operation: commit.operation, instant, inserted: stats.inserted, updated: stats.updated, deleted: stats.deleted, partitions: stats.partitions };
  const snapshot = pendingSnapshot(state, instant, inflight.action, writeCommitMetadata(state, commit), new Date(input.options.clock.now()));
  const records = input.records.filter((r) => !r.isDelete);
  const globalKeys = isGlobalIndex(input.options.index);
  const context: ValidationContext = {
    batch, snapshot, records, schema: commit.schema, globalKeys,
    existingKeys: async (asked) => {
      // The write's own records as they are; others a validator made up get no ordering values (a plain lookup).
      const own = new Set<NewRecord>(records);
      const tagged = await input.lookup(asked.map((r, index) => (own.has(r) ? (r as HoodieRecord) : { recordKey: r.recordKey, partitionPath: r.partitionPath, data: r.data, ordering: [], isDelete: false, index })));
      const found = new Set<string>();
      for (const group of tagged.updates.values()) for (const r of group.values()) found.add(uniquenessKey(globalKeys, r));
      return found;
    },
  };
  for (const [position, v] of validators.entries()) {
    const name = validatorName(v, position);
    let result: ValidatorOutcome;
    try {
      result = await (typeof v === 'function' ? v(batch, snapshot) : v.validate(context));
    } catch (err) {
      throw aborted(name, instant, `threw: ${err instanceof Error ? err.message : String(err)}`, err);
    }
    if (result === true) continue;
    throw aborted(name, instant, typeof result === 'string' && result !== '' ? result : `returned ${JSON.stringify(result)}`);
  }
}

function aborted(name: string, instant: string, message: string, cause?: unknown): LakeletError {
  return new LakeletError('ABORTED', `pre-commit validator ${name} failed: ${message} (instant ${instant} was rolled back; nothing was committed)`, { instant, validator: name, value: message }, { cause });
}
