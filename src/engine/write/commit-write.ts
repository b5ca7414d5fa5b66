// Step 7 of a write (DESIGN.md §3), the commit itself: the commit metadata (write stats per partition, replaced
// file groups, the schema), the stalled-writer check, and the atomic completed file through the commit protocol —
// a completed file that landed with its acknowledgement lost counts as committed. Then the write's result.
import { avroSchemaJson, type AvroRecordSchema } from '../../format/avro/schema.js';
import { LakeletError } from '../../errors.js';
import type { WriteStatInput } from '../../timeline/commit-metadata-writer.js';
import { commitMetadataBytes } from '../../timeline/commit-metadata-avro.js';
import { completeWrite, writeTransition, type InflightWrite } from '../commit/commit-protocol.js';
import { heartbeatExpired } from '../commit/heartbeat.js';
import type { WriteWarning } from '../services/post-commit.js';
import type { TableState } from '../table-state.js';
import { isReplaceOperation, type WriteOperation } from './operation.js';
import type { ResolvedWriteOptions } from './write-options.js';
import type { BucketResult } from './write-stat.js';
import { metadataCommitHooks, type MetadataRecordIndexChanges } from './metadata-commit.js';

/** What a write did. The write is committed: every field describes a completed instant. */
export interface WriteResult {
  /** The commit's instant time. */
  instant: string;
  operation: WriteOperation;
  stats: { inserted: number; updated: number; deleted: number; filesWritten: number; bytesWritten: number; partitions: string[]; replacedFileGroups: number };
  /**
   * Post-commit steps (inline compaction, clean, archival, record-index update) that failed after the commit:
   * the write itself succeeded and must not be retried. Empty when every step succeeded.
   */
  warnings: WriteWarning[];
}

/** What the commit records. */
export interface WriteCommit {
  operation: WriteOperation;
  results: readonly BucketResult[];
  /** File groups replaced, per partition (overwrites). */
  replaced: ReadonlyMap<string, readonly string[]>;
  /** File groups written or replaced: the conflict check's input. */
  touched: ReadonlySet<string>;
  /** Data fields of the write schema (`extraMetadata.schema`). */
  schema: AvroRecordSchema;
  /** The write's key changes for the metadata table's `record_index` (computed only when the MDT is written). */
  recordIndexChanges?: () => Promise<MetadataRecordIndexChanges>;
}

/**
 * Complete the write's instant. A writer whose heartbeat went silent past the timeout (a stalled process, a
 * frozen tab) may have been taken for failed and rolled back: as Hudi, it does not commit then (`ABORTED`).
 */
export async function commitWrite(state: TableState, inflight: InflightWrite, commit: WriteCommit, options: ResolvedWriteOptions): Promise<void> {
  const { storage } = state;
  const metadata = writeCommitMetadata(state, commit, options.extraMetadata);
  if (options.heartbeatTimeoutMs > 0 && (await heartbeatExpired(storage, inflight.instantTime, options.heartbeatTimeoutMs, options.clock))) {
    throw new LakeletError('ABORTED', `commit: the heartbeat of instant ${inflight.instantTime} was silent for more than ${options.heartbeatTimeoutMs} ms (the writer stalled), so other writers may have rolled it back; nothing of it was committed`, { instant: inflight.instantTime });
  }
  try {
    await completeWrite(storage, state, inflight, metadata, commit.touched, options.heartbeatTimeoutMs, metadataCommitHooks(state, inflight, commit, metadata));
  } catch (err) {
    // The completed file may have landed with its acknowledgement lost: then the write has succeeded.
    if (!(await completedFileExists(state, inflight))) throw err;
    await inflight.heartbeat.stop().catch(() => undefined);
  }
}

/** The bytes of a write's completed instant file: write stats per partition, replaced groups, the schema. */
export function writeCommitMetadata(state: TableState, commit: WriteCommit, extra: Readonly<Record<string, string>> = {}): Uint8Array {
  const partitionToWriteStats = new Map<string, WriteStatInput[]>();
  for (const r of commit.results) partitionToWriteStats.set(r.stat.partitionPath, [...(partitionToWriteStats.get(r.stat.partitionPath) ?? []), r.stat]);
  if (commit.operation === 'DELETE_PARTITION') for (const p of commit.replaced.keys()) if (!partitionToWriteStats.has(p)) partitionToWriteStats.set(p, []);
  return commitMetadataBytes(state.config.timelineLayoutVersion, {
    partitionToWriteStats,
    partitionToReplaceFileIds: isReplaceOperation(commit.operation) ? new Map([...commit.replaced].map(([p, ids]) => [p, [...ids]])) : undefined,
    compacted: false,
    extraMetadata: { ...extra, schema: avroSchemaJson(commit.schema) },
    operationType: commit.operation,
  });
}

/** The result of a committed write. */
export function writeResult(instant: string, commit: WriteCommit, warnings: WriteWarning[]): WriteResult {
  const { results } = commit;
  const sum = (f: (r: BucketResult) => number) => results.reduce((a, r) => a + f(r), 0);
  return {
    instant,
    operation: commit.operation,
    stats: {
      inserted: sum((r) => r.inserted),
      updated: sum((r) => r.updated),
      deleted: sum((r) => r.deleted),
      filesWritten: results.length,
      bytesWritten: sum((r) => r.stat.totalWriteBytes),
      partitions: [...new Set(results.map((r) => r.stat.partitionPath))].sort(),
      replacedFileGroups: [...commit.replaced.values()].reduce((a, ids) => a + ids.length, 0),
    },
    warnings,
  };
}

/** Does this write's completed instant file exist? (Only this writer creates it: its instant is its own.) */
async function completedFileExists(state: TableState, inflight: InflightWrite): Promise<boolean> {
  return writeTransition(state.storage, state, inflight).exists('COMPLETED');
}
