// The records of chosen file groups at one point of the timeline — just before or just after a write — read
// through the file-system view and the slice reader (base file, MOR logs merged), for CDC inference.
import { fileGroupKey } from '../../../file-group/file-slice.js';
import type { FileSystemView } from '../../../file-group/file-system-view.js';
import type { AvroRecordSchema } from '../../../format/avro/schema.js';
import { orderingSpec } from '../../../merge/ordering.js';
import type { Timeline } from '../../../timeline/timeline.js';
import type { CompiledFilter } from '../../../expr/filter.js';
import type { TableState } from '../../table-state.js';
import { readFileSlice, type ReadWarning, type SliceReadContext } from '../file-slice-reader.js';
import type { Row } from './cdc-infer.js';

/**
 * A point of the timeline: the writes requested at or before `asOf` (table version 6), or completed at or
 * before `completedBy` (versions 8 and 9); `empty` is the table before its first write.
 */
export type TimelinePoint = { asOf: string; completedBy?: undefined } | { asOf?: undefined; completedBy: string } | 'empty';

/** A file group by partition and file id. */
export interface GroupRef {
  partitionPath: string;
  fileId: string;
}

/** Reads file groups' merged records at points of one timeline. */
export class GroupImages {
  private readonly state: TableState;
  private readonly view: FileSystemView;
  private readonly timeline: Timeline;
  private readonly merge: SliceReadContext['merge'];
  private readonly onWarning: (w: ReadWarning) => void;
  /** The schema both images answer in: rows of files written under older schemas are promoted to it. */
  private readonly schema: AvroRecordSchema;

  constructor(state: TableState, view: FileSystemView, timeline: Timeline, schema: AvroRecordSchema, onWarning: (w: ReadWarning) => void) {
    const { config } = state;
    this.state = state;
    this.view = view;
    this.timeline = timeline;
    this.merge = { mode: config.recordMergeMode, partialUpdateMode: config.properties.get('hoodie.table.partial.update.mode'), ...orderingSpec(config.orderingFields, schema) };
    this.onWarning = onWarning;
    this.schema = schema;
  }

  /**
   * The records (meta columns included) of each group at `point`, by {@link fileGroupKey}: a group with no
   * slice there (not written yet, replaced, or emptied) has none. `filters` only prune base-file row groups.
   */
  async rowsAt(point: TimelinePoint, groups: readonly GroupRef[], filters: readonly CompiledFilter[] = []): Promise<Map<string, Row[]>> {
    const out = new Map<string, Row[]>();
    for (const g of groups) out.set(fileGroupKey(g.partitionPath, g.fileId), []);
    if (point === 'empty' || groups.length === 0) return out;
    const partitions = new Set(groups.map((g) => g.partitionPath));
    const slices = this.view.latestSlices({ asOf: point.asOf, completedBy: point.completedBy, partitionFilter: (p) => partitions.has(p) });
    const ctx: SliceReadContext = { storage: this.state.storage, config: this.state.config, timeline: this.timeline, asOf: point.asOf, completedBy: point.completedBy, merge: this.merge, onWarning: this.onWarning, schema: this.schema };
    for (const slice of slices) {
      const key = fileGroupKey(slice.partitionPath, slice.fileId);
      if (!out.has(key)) continue;
      out.set(key, await readFileSlice(ctx, slice, { columns: undefined, filters, baseOnly: false }));
    }
    return out;
  }
}
