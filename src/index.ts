// lakelet's public API (browser, edge and Node): open or create Hudi tables in any Storage, read and write them,
// run their services. Values here, every public type in types.ts; anything else is internal.
export { Table } from './table/table.js';
export { openTable, createTable } from './table/open.js';
export { findTableRoot, tableStorage } from './table/root.js';
export { memoryStorage } from './storage/memory.js';
export { zipStorage } from './storage/zip.js';
export { prefixedStorage } from './storage/prefixed.js';
export { fileListStorage } from './storage/file-list.js';
export { s3Storage } from './storage/s3.js';
export { httpStorage } from './storage/http.js';
export { opfsStorage } from './storage/opfs.js';
export { indexedDbStorage } from './storage/indexeddb.js';
export { withTableWriteLock } from './engine/commit/write-lock.js';
export { validateTable } from './engine/validate/validate.js';
export { replicate } from './replication/replicate.js';
export { sync } from './replication/sync.js';
export { LakeletError, isLakeletError } from './errors.js';
export { parseFilter } from './expr/filter.js';
export { MicrosDate } from './schema/timestamp-micros.js';
export { jsonRow } from './schema/json-row.js';
export { META_FIELDS } from './schema/table-schema.js';
export { avroSchemaToJson } from './format/avro/schema.js';
export { evolveSchemaForRows } from './schema/evolve-for-rows.js';
export { hiveSyncStatements } from './catalog/hive-sync.js';
export { dropTable, listTables, registerTable } from './catalog/catalog.js';
export { hiveMetastoreHttp } from './catalog/metastore-http.js';
/** The pre-commit validator built-ins: `validators.notNull`, `validators.unique`, `validators.rowCount`, `validators.expect`. */
export * as validators from './engine/validators/builtins.js';
export type { HiveSyncOptions } from './catalog/hive-sync.js';
export type { CatalogEntry } from './catalog/catalog-file.js';
export type { DropTableOptions, RegisterTableOptions } from './catalog/catalog.js';
export type { CatalogSyncOption, HiveStatementSink, HiveSyncTarget } from './catalog/catalog-options.js';
export type { HiveMetastoreHttpOptions } from './catalog/metastore-http.js';
export type { CommitEvent, CommitListener, OnCommitOptions } from './engine/commit/notifications.js';
export type { CommitCallbackOptions } from './engine/commit/commit-callback-options.js';
export type * from './types.js';
