// The public option and result types, in one module: the few defined here are purely public (no engine code
// takes them); the rest are re-exported from the module that uses them. index.ts exports exactly this list.
import type { Filter } from './expr/filter.js';
import type { QueryOptions } from './engine/read/query.js';
import type { ListingMode } from './engine/metadata/metadata-listing.js';

export type { Storage, FileInfo } from './storage/storage.js';
export type { LakeletErrorCode } from './errors.js';
export type { TableConfig, TableType } from './config/table-config.js';
export type { Instant } from './timeline/instant.js';
export type { CommitMetadata } from './timeline/commit-metadata.js';
export type { FileSlice } from './file-group/file-slice.js';
export type { AvroRecordSchema } from './format/avro/schema.js';
export type { Filter } from './expr/filter.js';
export type { QueryOptions, IncrementalOptions } from './engine/read/query.js';
export type { ReadWarning } from './engine/read/file-slice-reader.js';
export type { WriteInput } from './engine/write/records.js';
export type { WriteOptions, WriteProgress } from './engine/write/write-options.js';
export type { BatchStats, NewRecord, PendingSnapshot, PreCommitValidator, PreCommitValidatorFunction, PreCommitValidatorObject, ValidationContext, ValidatorOutcome } from './engine/validators/validator.js';
export type { RowCountBounds } from './engine/validators/builtins.js';
export type { WriteResult } from './engine/write/write-client.js';
export type { WriteWarning } from './engine/services/post-commit.js';
export type { CreateTableOptions } from './engine/create-table.js';
export type { IndexType } from './index/index-type.js';
export type { Clock } from './engine/clock.js';
export type { CleanOptions, CleanResult } from './engine/services/clean.js';
export type { ArchivalOptions } from './plan/archival-plan.js';
export type { CompactionResult } from './engine/services/compaction.js';
export type { ClusteringResult } from './engine/services/clustering.js';
export type { ClusterOptions } from './table/clustering.js';
export type { CompactionPlanOptions, PlannedClean, PlannedCompaction, PlannedCompactionSlice } from './table/service-plans.js';
export type { ClusteringOptions } from './plan/clustering-plan.js';
export type { SavepointOptions, SavepointResult } from './engine/services/savepoint.js';
export type { RestoreResult } from './engine/services/restore.js';
export type { RollbackResult } from './engine/services/rollback.js';
export type { ReplicateMode, ReplicateOptions, ReplicateResult } from './replication/replicate.js';
export type { ReplayedWrite } from './replication/replay-writes.js';
export type { SyncHandle, SyncNetwork, SyncOptions, SyncTimers } from './replication/sync.js';
export type { ReplicatePhase, ReplicateProgress } from './replication/replicate-copy.js';
export type { S3StorageOptions } from './storage/s3.js';
export type { HttpStorageOptions } from './storage/http.js';
export type { FileListEntry } from './storage/file-list.js';
export type { OpfsStorage } from './storage/opfs.js';
export type { IndexedDbStorage } from './storage/indexeddb.js';
export type { ValidationCheck, ValidationProblem, ValidationResult, ValidateOptions } from './engine/validate/validation-result.js';
export type { ValidationTarget } from './engine/validate/validate.js';

/** Options of `Table.fileSlices`. */
export interface FileSliceOptions {
  asOf?: string | Date;
  readOptimized?: boolean;
  /** Incremental: exclusive start instant. */
  from?: string | Date;
  /** Incremental: inclusive end instant (default the latest write). */
  to?: string | Date;
  /** Filters on partition fields prune partitions (and, through the metadata table, file groups and files). */
  filters?: readonly (Filter | string)[];
  /** Where the file listing comes from (see `QueryOptions.listing`). */
  listing?: ListingMode;
}

/** Options of `openTable`: the defaults of the table's reads. */
export interface OpenTableOptions {
  /** Where reads list files unless a query says: `metadata` (default) or `storage` (see `QueryOptions.listing`). */
  listing?: ListingMode;
  /** Pre-commit validators every write through this object runs unless it passes its own (see `WriteOptions.validators`). */
  validators?: readonly import('./engine/validators/validator.js').PreCommitValidator[];
}

export type { ListingMode } from './engine/metadata/metadata-listing.js';

/** Options of `Table.rows`: a snapshot query, or an incremental one when `from` is set. */
export type RowsOptions = QueryOptions & { from?: string | Date; to?: string | Date };

/** What a table still keeps for time travel (`Table.retention`). */
export interface TableRetention {
  /**
   * The oldest instant a time-travel query can read and the clean that set it (queries before it fail with
   * `NOT_FOUND`, except at a savepoint); absent when no clean has removed anything.
   */
  oldestReadable?: { instant: string; clean: string };
  /**
   * The completed savepoints, oldest first: their snapshots stay readable and the cleaner keeps their files.
   * Who, when and why are absent when the savepoint file cannot be read.
   */
  savepoints: { instant: string; savepointedBy?: string; savepointedAt?: Date; comments?: string }[];
}
export type { TableReader } from './table/table-reader.js';
export type { SchemaHistoryEntry } from './table/schema-history.js';
export type { ChangesOptions } from './engine/read/cdc/cdc-query.js';
export type { CdcSource } from './engine/read/cdc/cdc-files.js';
export type { ChangeOp, ChangeRecord } from './engine/read/cdc/cdc-infer.js';
export type { HistoryEnd, HistoryOp, HistoryOptions, RecordHistory, RecordVersion } from './engine/read/history/record-history.js';
export type { RecordKeyInput } from './engine/read/history/history-candidates.js';
export type { SchemaChange } from './schema/schema-diff.js';
export type { RowsSchemaEvolution } from './schema/evolve-for-rows.js';
