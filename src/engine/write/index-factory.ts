// The index a write tags with (Hudi's HoodieIndexFactory): one `Index` per index type; the IN_MEMORY one is the
// object a Table keeps across its writes (its key map lives there), or a fresh one for a write without a Table;
// RECORD_INDEX is the MDT's record index on v8/v9 tables that have one.
import type { IndexType } from '../../index/index-type.js';
import { baseFileIndex } from './base-file-index.js';
import { InMemoryIndex } from './in-memory-index.js';
import type { Index } from './tag.js';
import { hasMetadataRecordIndex, metadataRecordLevelIndex } from './record-index-mdt.js';

/**
 * RECORD_INDEX: Hudi's record index in the MDT on v8/v9 tables that list `record_index`; lakelet's `.aux` index
 * otherwise (v6 tables, and v8/v9 tables without an MDT record index).
 */
const recordIndexForTable: Index = {
  type: 'RECORD_INDEX',
  tag: async (input) => (hasMetadataRecordIndex(input.state) ? metadataRecordLevelIndex : await lakeletRecordIndex()).tag(input),
  update: async (commit) => (hasMetadataRecordIndex(commit.state) ? metadataRecordLevelIndex : await lakeletRecordIndex()).update(commit),
};

/** lakelet's own record index (`.aux`), loaded only by a write to a table that uses it. */
const lakeletRecordIndex = async (): Promise<Index> => (await import('./record-index.js')).recordLevelIndex;

/** The index of `type`; `inMemory` is the IN_MEMORY index to use (its map kept between writes). */
export function createIndex(type: IndexType, inMemory?: InMemoryIndex): Index {
  switch (type) {
    case 'IN_MEMORY':
      return inMemory ?? new InMemoryIndex();
    case 'RECORD_INDEX':
      return recordIndexForTable;
    default:
      return baseFileIndex(type);
  }
}
