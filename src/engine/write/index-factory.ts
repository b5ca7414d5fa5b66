// The index a write tags with (Hudi's HoodieIndexFactory): one `Index` per index type; the IN_MEMORY one is the
// object a Table keeps across its writes (its key map lives there), or a fresh one for a write without a Table.
import type { IndexType } from '../../index/index-type.js';
import { baseFileIndex } from './base-file-index.js';
import { InMemoryIndex } from './in-memory-index.js';
import { recordLevelIndex } from './record-index.js';
import type { Index } from './tag.js';

/** The index of `type`; `inMemory` is the IN_MEMORY index to use (its map kept between writes). */
export function createIndex(type: IndexType, inMemory?: InMemoryIndex): Index {
  switch (type) {
    case 'IN_MEMORY':
      return inMemory ?? new InMemoryIndex();
    case 'RECORD_INDEX':
      return recordLevelIndex;
    default:
      return baseFileIndex(type);
  }
}
