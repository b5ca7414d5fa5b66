// Hudi's write operations and what each implies for the pipeline: the timeline action it commits as, whether it
// replaces file groups (overwrites) and whether its records are deduplicated first.
import type { TableConfig } from '../../config/table-config.js';
import type { Action } from '../../timeline/instant.js';
import type { ResolvedWriteOptions } from './write-options.js';

/** Hudi's write operation types. */
export type WriteOperation = 'UPSERT' | 'INSERT' | 'BULK_INSERT' | 'DELETE' | 'INSERT_OVERWRITE' | 'INSERT_OVERWRITE_TABLE' | 'DELETE_PARTITION';

const REPLACE_OPS = new Set<WriteOperation>(['INSERT_OVERWRITE', 'INSERT_OVERWRITE_TABLE', 'DELETE_PARTITION']);

/** Does the operation replace whole file groups (a replacecommit)? */
export function isReplaceOperation(op: WriteOperation): boolean {
  return REPLACE_OPS.has(op);
}

/** The action the operation commits as: replacecommit for overwrites, else commit (COW) or deltacommit (MOR). */
export function commitAction(op: WriteOperation, config: Pick<TableConfig, 'tableType'>): Action {
  if (isReplaceOperation(op)) return 'replacecommit';
  return config.tableType === 'MERGE_ON_READ' ? 'deltacommit' : 'commit';
}

/** Are the operation's records deduplicated by key first? (Hudi's combine-before-upsert / -insert; deletes always.) */
export function dedupesRecords(op: WriteOperation, options: Pick<ResolvedWriteOptions, 'combineBeforeUpsert' | 'combineBeforeInsert'>): boolean {
  if (op === 'UPSERT') return options.combineBeforeUpsert;
  if (op === 'INSERT') return options.combineBeforeInsert;
  return op === 'DELETE';
}
