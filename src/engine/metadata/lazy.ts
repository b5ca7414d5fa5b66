// The lazy boundary of the metadata table (MDT): the one module through which the read and write paths reach the
// MDT code (HFile reader and writer, MDT records, column stats, MDT services) — always by a dynamic
// import of this module at the points where a table has a metadata table, never statically. An app that
// works on a v6 table, or a v8/v9 table without an MDT, therefore never loads this chunk
// (test/bundle-size.test.ts checks it exists and is not counted). Types are imported with `import type` elsewhere.

/** Opening the MDT of a data table (engine/metadata/metadata-table.ts). */
export { openMetadataTable } from './metadata-table.js';
/** Reads through the MDT: the `files` listing and record-index lookups (engine/metadata/metadata-reads.ts). */
export { lookupRecordIndex, metadataListingFiles, readMetadataListing } from './metadata-reads.js';
/** A query's record-index, column-stats and partition-stats skipping (engine/metadata/metadata-skipping.ts). */
export { metadataSkipping } from './metadata-skipping.js';
/** An MDT deltacommit written for a data instant, or discarded with it (engine/metadata/metadata-writer.ts). */
export { discardMetadataDeltacommitOf, writeMetadataDeltacommit } from './metadata-writer.js';
/** A data instant's MDT builder input (engine/metadata/metadata-write-input.ts). */
export { metadataWriteInput } from './metadata-write-input.js';
/** The MDT's own services: compaction, clean, archival of its timeline, and the rollback of an MDT deltacommit. */
export { compactMetadataTable } from './metadata-compaction.js';
export { cleanMetadataTable } from './metadata-clean.js';
export { archiveMetadataTable } from './metadata-archival.js';
export { rollbackMetadataDeltacommit } from './metadata-rollback.js';
/** The MDT created with a table (engine/metadata/metadata-init.ts). */
export { initializeMetadataTable } from './metadata-init.js';
/** What a data instant or a data clean appends to the MDT (metadata/metadata-write-records.ts, metadata-clean-records.ts). */
export { metadataWriteRecords } from '../../metadata/metadata-write-records.js';
export { cleanMetadataRecords } from '../../metadata/metadata-clean-records.js';
/** Which columns the column-stats index covers and how each is stored (metadata/column-stats.ts). */
export { columnStatsKind, columnsToIndex } from '../../metadata/column-stats.js';
