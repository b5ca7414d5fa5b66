// lakelet's public API (browser, edge and Node): open Hudi tables in any Storage and query them.
export { LakeletError, isLakeletError, type LakeletErrorCode, type LakeletErrorContext } from './errors.js';
export { Table, openTable, type FileSliceOptions, type RowsOptions } from './table.js';
export type { CommitMetadata, WriteStat } from './timeline/commit-metadata.js';
export type { QueryOptions, IncrementalOptions, ReadOptions } from './engine/query.js';
export type { ReadWarning } from './engine/file-slice-reader.js';
export { findTableRoot, tableStorage } from './engine/table-root.js';
export type { Storage, FileInfo, ByteRange, ListOptions } from './storage/storage.js';
export { memoryStorage, type MemoryStorageOptions } from './storage/memory.js';
export { zipStorage, type ZipStorageOptions } from './storage/zip.js';
export { prefixedStorage } from './storage/prefixed.js';
export { fileListStorage, type FileListEntry, type FileListStorageOptions } from './storage/file-list.js';
export { jsonRow, jsonValue } from './format/json-row.js';
export type { AvroRecordSchema, AvroSchema } from './format/avro/schema.js';
export type { TableConfig, TableType, RecordMergeMode } from './config/table-config.js';
export type { Instant, InstantState, Action } from './timeline/instant.js';
export type { FileSlice, BaseFile, LogFile } from './file-group/file-slice.js';
export type { Filter, FilterOp } from './plan/filters.js';
export { parseFilter } from './plan/filters.js';
