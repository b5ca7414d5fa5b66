// Record-key indexes: the index types a write can use and what a lookup returns (the current file group of
// a key, keyed by record key alone for global indexes, by partition and key otherwise).

/**
 * Index types (Hudi's `hoodie.index.type`). Global indexes find a key in any partition. `RECORD_INDEX` is a
 * persistent key → file group index kept under `.hoodie/.aux/lakelet/record-index/` (global, like Hudi's).
 */
export type IndexType = 'BLOOM' | 'GLOBAL_BLOOM' | 'SIMPLE' | 'GLOBAL_SIMPLE' | 'IN_MEMORY' | 'RECORD_INDEX';

/** Every supported index type. */
export const INDEX_TYPES: readonly IndexType[] = ['BLOOM', 'GLOBAL_BLOOM', 'SIMPLE', 'GLOBAL_SIMPLE', 'IN_MEMORY', 'RECORD_INDEX'];

/** True for indexes that look a key up across partitions (a key then lives in one partition only). */
export function isGlobalIndex(type: IndexType): boolean {
  return type === 'GLOBAL_BLOOM' || type === 'GLOBAL_SIMPLE' || type === 'IN_MEMORY' || type === 'RECORD_INDEX';
}

/** Where a record currently lives. */
export interface RecordLocation {
  partitionPath: string;
  fileId: string;
  /** Instant of the latest base file holding it. */
  baseInstantTime: string;
}

/** The lookup key of a record: the key alone for global indexes, partition + key otherwise. */
export function lookupKey(global: boolean, partitionPath: string, recordKey: string): string {
  return global ? recordKey : `${partitionPath}\u0000${recordKey}`;
}

/** Lookup result of an index: `lookupKey(global, partition, key)` → the key's current location. */
export type TagMap = Map<string, RecordLocation>;
