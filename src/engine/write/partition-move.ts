// Partition moves under a global index, as Hudi decides them (HoodieIndexUtils.mergeForPartitionUpdatesIfNeeded):
// an incoming record whose key lives in another partition is first merged with the stored record by the
// ordering fields. Stored strictly greater → the record stays (nothing moves); otherwise → the move happens.
import { fileGroupKey, type FileSlice } from '../../file-group/file-slice.js';
import type { PartitionMoveCandidate, PartitionMoveDecision } from '../../index/tagging.js';
import type { OrderingKind } from '../../schema/compare.js';
import { newerWins } from '../../merge/ordering.js';
import { readFileSlice } from '../read/file-slice-reader.js';
import type { HoodieRecord } from '../../merge/hoodie-record.js';
import type { TableState } from '../table-state.js';

/** The merge settings that decide a move. */
export interface PartitionMoveMerge {
  orderingFields: readonly string[];
  orderingKinds: readonly OrderingKind[];
}

/**
 * Decide each candidate move (keyed by the candidate's record). Under event-time ordering the stored
 * record's ordering values are read from its (merged) file slice; commit-time ordering always moves.
 * Hudi's tie rule (DefaultHoodieRecordPayload): an equal ordering value lets the incoming record win.
 */
export async function decidePartitionMoves(
  state: TableState,
  sliceOf: ReadonlyMap<string, FileSlice>,
  candidates: readonly PartitionMoveCandidate[],
  merge: PartitionMoveMerge,
): Promise<Map<HoodieRecord, PartitionMoveDecision>> {
  const out = new Map<HoodieRecord, PartitionMoveDecision>();
  const eventTime = state.config.recordMergeMode === 'EVENT_TIME_ORDERING' && merge.orderingFields.length > 0;
  const byGroup = new Map<string, PartitionMoveCandidate[]>();
  for (const c of candidates) {
    const group = fileGroupKey(c.location.partitionPath, c.location.fileId);
    if (!eventTime || !sliceOf.has(group)) {
      out.set(c.record, 'move');
      continue;
    }
    const list = byGroup.get(group) ?? [];
    list.push(c);
    byGroup.set(group, list);
  }
  const { storage, config } = state;
  for (const [group, list] of byGroup) {
    const slice = sliceOf.get(group) as FileSlice;
    const rows = await readFileSlice(
      { storage, config, timeline: state.timeline, asOf: undefined, merge: { mode: config.recordMergeMode, orderingFields: merge.orderingFields, orderingKinds: merge.orderingKinds }, onWarning: () => undefined },
      slice,
      { columns: ['_hoodie_record_key', ...merge.orderingFields], filters: [], baseOnly: false },
    );
    const wanted = new Set(list.map((c) => c.record.recordKey));
    const stored = new Map<string, Record<string, unknown>>();
    for (const row of rows) {
      const key = String(row._hoodie_record_key);
      if (wanted.has(key)) stored.set(key, row);
    }
    for (const c of list) {
      const row = stored.get(c.record.recordKey);
      out.set(c.record, row === undefined ? 'insert' : !newerWins(merge.orderingKinds, c.record.ordering, merge.orderingFields.map((f) => row[f])) ? 'stay' : 'move');
    }
  }
  return out;
}
