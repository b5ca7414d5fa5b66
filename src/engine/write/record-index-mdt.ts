// lakelet's RECORD_INDEX on v8/v9 tables with a metadata table: Hudi's own record index, the MDT `record_index`
// partition (issue 10). Tagging looks the keys up in it (point lookups of the file groups the keys hash to);
// the index is updated by the write's MDT deltacommit itself (engine/write/metadata-commit.ts), so `update`
// does nothing — no `.aux/lakelet` index is kept on such tables.
import { fileGroupKey } from '../../file-group/file-slice.js';
import type { TagMap } from '../../index/index-type.js';
import type { LocatedKey } from '../../index/tagging.js';
import { METADATA_PARTITION, parseMetadataPartitions } from '../../metadata/metadata-partitions.js';
import type { TableState } from '../table-state.js';
import { tagWith, type Index, type TagInput } from './tag.js';

/** Does the table keep Hudi's record index in its MDT (v8/v9 listing `record_index`)? */
export function hasMetadataRecordIndex(state: TableState): boolean {
  return state.config.version >= 8 && parseMetadataPartitions(state.config.properties.get('hoodie.table.metadata.partitions')).includes(METADATA_PARTITION.RECORD_INDEX);
}

/** Where the MDT's record index puts `keys`, among the latest slices (a key naming a group no longer live is not found). */
async function locate(input: TagInput, keys: readonly string[]): Promise<LocatedKey[]> {
  const { lookupRecordIndex } = await import('../metadata/lazy.js');
  const found = (await lookupRecordIndex(input.state.storage, keys, { dataConfig: input.state.config, dataTimeline: input.state.timeline })) ?? new Map();
  const out: LocatedKey[] = [];
  for (const [key, loc] of found) if (input.sliceOf.has(fileGroupKey(loc.partitionPath, loc.fileId))) out.push({ recordKey: key, partitionPath: loc.partitionPath, fileId: loc.fileId });
  return out;
}

/** The RECORD_INDEX index over the MDT `record_index` (global, as Hudi's). */
export const metadataRecordLevelIndex: Index = {
  type: 'RECORD_INDEX',
  tag: (input) => tagWith(input, true, {
    locate: async (records) => {
      const tags: TagMap = new Map();
      for (const l of await locate(input, records.map((r) => r.recordKey))) {
        const slice = input.sliceOf.get(fileGroupKey(l.partitionPath, l.fileId));
        if (slice) tags.set(l.recordKey, { partitionPath: l.partitionPath, fileId: l.fileId, baseInstantTime: slice.baseInstantTime });
      }
      return tags;
    },
    locateEverywhere: (keys) => locate(input, keys),
  }),
  update: async () => [],
};
