// Step 7's metadata-table half (hudi-v9-write.md §4.4, §6.2): for a data write on a table with an MDT, the hook
// the commit protocol runs under the commit lock just before the data instant completes — the builders' input
// (files from the write stats, record_index from the write's key changes, column/partition stats over the
// committed view as it is now under the lock), the records per MDT file group, and the MDT deltacommit named
// after the data instant. The data instant then completes after the MDT deltacommit's completion time.
import { LakeletError } from '../../errors.js';
import { withoutReplaced } from '../../file-group/replaced-view.js';
import { parseMetadataPartitions } from '../../metadata/metadata-partitions.js';
import type { RecordIndexUpsert } from '../../metadata/metadata-write-records.js';
import { withMetaFields } from '../../schema/table-schema.js';
import { parseCommitMetadata } from '../../timeline/commit-metadata.js';
import type { CompleteWriteHooks, InflightWrite } from '../commit/commit-protocol.js';
import { loadTableState } from '../context.js';
import { loadTimeline, type TableState } from '../table-state.js';
import type { WriteCommit } from './commit-write.js';
import { sliceKeyReaderFor, type CommittedWrite } from './tag.js';

/** A write's record-index changes as the MDT's `record_index` takes them. */
export interface MetadataRecordIndexChanges {
  /** Keys inserted or moved, with their new location. */
  upserts: readonly RecordIndexUpsert[];
  /** Keys deleted (a key also in `upserts` stays: it moved). */
  deletes: readonly string[];
}

/** The MDT `record_index` changes of a write (the record-level index's own change set: inserts, moves, deletes, replaced groups' keys). */
export async function metadataRecordIndexChanges(commit: CommittedWrite): Promise<MetadataRecordIndexChanges> {
  const { recordIndexChanges } = await import('./record-index.js');
  const changes = await recordIndexChanges(commit, sliceKeyReaderFor(commit.state, commit.merge.orderingFields, commit.merge.orderingKinds));
  // Hudi's record index is global: one location per key. A non-global index (or a non-deduplicating insert)
  // that puts one key into two file groups in one write cannot be indexed (Java rejects it too).
  const placed = new Map<string, string>();
  for (const a of changes.added) {
    const where = `${a.location.partitionPath}/${a.location.fileId}`;
    const before = placed.get(a.key);
    if (before !== undefined && before !== where) {
      throw new LakeletError('INVALID_ARGUMENT', `write: key ${JSON.stringify(a.key)} would be in two file groups (${before} and ${where}), but the metadata table's record index holds one location per key; use a global index (RECORD_INDEX, GLOBAL_BLOOM, GLOBAL_SIMPLE) and deduplicated writes on this table — nothing was committed`, { value: a.key, field: 'record_index' });
    }
    placed.set(a.key, where);
  }
  return {
    upserts: changes.added.map((a) => ({ key: a.key, partitionPath: a.location.partitionPath, fileId: a.location.fileId })),
    deletes: changes.removed.map((r) => r.key),
  };
}

/** Does the table keep a metadata table lakelet writes to (v8/v9 listing metadata partitions)? */
export function hasMetadataTable(state: TableState): boolean {
  return state.config.version >= 8 && parseMetadataPartitions(state.config.properties.get('hoodie.table.metadata.partitions')).length > 0;
}

/**
 * The commit protocol's hook writing the MDT deltacommit of `inflight` (undefined when the table has no MDT).
 * `metadata` is the data instant's completed-file bytes (its write stats are read back from them, as a reader of
 * the timeline would). Deleted partitions (DELETE_PARTITION) are marked deleted in `__all_partitions__`.
 */
export function metadataCommitHooks(state: TableState, inflight: InflightWrite, commit: WriteCommit, metadata: Uint8Array): CompleteWriteHooks {
  if (!hasMetadataTable(state)) return {};
  return {
    beforeComplete: async (lockHeld) => {
      const { storage, config } = state;
      // Partition stats are recomputed over the latest slices: take the ones committed meanwhile into account.
      const timeline = await loadTimeline(storage, config);
      const missed = timeline.completedWrites().some((i) => i.requestedTime !== inflight.instantTime && !inflight.seenCompleted.has(i.requestedTime) && !inflight.seenCompactions.has(i.requestedTime));
      const current = missed ? await loadTableState(storage) : state;
      // The MDT code loads only here, for a table with a metadata table (../metadata/lazy.ts).
      const { metadataWriteInput, metadataWriteRecords, openMetadataTable, writeMetadataDeltacommit } = await import('../metadata/lazy.js');
      const metadataTable = await openMetadataTable(storage, { dataConfig: config, dataTimeline: current.timeline });
      if (metadataTable === undefined) return undefined;
      const parsed = parseCommitMetadata(metadata, inflight.instantTime);
      const writeStats = Object.values(parsed.partitionToWriteStats).flat();
      const recordIndex = commit.recordIndexChanges ? await commit.recordIndexChanges() : { upserts: [], deletes: [] };
      const input = await metadataWriteInput({
        storage, metadataTable, instantTime: inflight.instantTime,
        timelineTimezone: config.properties.get('hoodie.table.timeline.timezone'),
        schema: config.populateMetaFields ? withMetaFields(commit.schema) : commit.schema,
        populateMetaFields: config.populateMetaFields,
        view: withoutReplaced(await current.fileSystemView(), commit.replaced),
        writeStats,
        recordIndex,
        ...(commit.operation === 'DELETE_PARTITION' ? { deletedPartitions: [...commit.replaced.keys()] } : {}),
      });
      await lockHeld();
      const result = await writeMetadataDeltacommit({ storage, dataConfig: config, metadataTable, instantTime: inflight.instantTime, writes: metadataWriteRecords(input), clock: inflight.clock });
      return result.completionTime;
    },
  };
}
