// Merging the versions of records within one file slice (hudi-format.md §8, docs/partial-updates.md), as Hudi
// 1.x's file-group reader does: the log's data and delete records are merged among themselves in log order
// (`deltaMerge`), then each base row with its key's merged log version (`finalMerge`), under event-time or
// commit-time ordering, with Hudi's delete semantics and partial records merged column by column.
import type { RecordMergeMode } from '../config/table-config.js';
import type { OrderingKind } from '../schema/compare.js';
import { newerWins, usesEventTime } from './ordering.js';
import { mergeVersions, type RecordVersion } from './partial-merge.js';

/** How records are compared while merging. */
export interface RecordMergerOptions {
  mode: RecordMergeMode;
  /** Ordering fields (event-time ordering); empty = arrival order decides. */
  orderingFields: readonly string[];
  /** Comparison kind (and decimal scale) of each ordering field. */
  orderingKinds: readonly OrderingKind[];
  /** Field holding the record key (default `_hoodie_record_key`). */
  keyField?: string;
  /** The table's `hoodie.table.partial.update.mode` (partial blocks merge only under unset/NONE/KEEP_VALUES). */
  partialUpdateMode?: string | undefined;
}

/** A delete from a DELETE block. */
export interface DeleteRecord {
  recordKey: string;
  partitionPath?: string | null | undefined;
  /** The delete's ordering value; 0, 0n or null mean "natural order" (the delete wins by arrival). */
  orderingVal?: unknown;
}

/** True for Hudi's "natural order" ordering value (`0`, `0n`, null, absent). */
export function isNaturalOrdering(v: unknown): boolean {
  return v === undefined || v === null || v === 0 || v === 0n || v === '0';
}

/**
 * Merges the records of one file slice. Feed base rows, then log blocks in order (`addRecords`,
 * `addPartialRecords`, `addDeletes`); `rows()` gives the surviving records (base order first, then new keys in
 * arrival order).
 */
export class RecordMerger {
  /** Base rows by key; a key the base holds more than once (a non-deduplicating insert) keeps every copy. */
  private readonly base = new Map<string, Record<string, unknown>[]>();
  /** The merged log version of each key the log touched, in first-arrival order. */
  private readonly log = new Map<string, RecordVersion>();
  private readonly options: RecordMergerOptions;
  private readonly keyField: string;
  private readonly eventTime: boolean;

  constructor(options: RecordMergerOptions) {
    this.options = options;
    this.keyField = options.keyField ?? '_hoodie_record_key';
    this.eventTime = usesEventTime(options.mode, options);
  }

  /** Number of keys tracked (live or deleted). */
  get size(): number {
    let n = this.base.size;
    for (const key of this.log.keys()) if (!this.base.has(key)) n++;
    return n;
  }

  /**
   * Add base-file rows (they start the merge). A key the base holds twice (Hudi's insert does not deduplicate)
   * keeps both copies, as Hudi's readers and compaction do: each copy is merged with the log records on its own.
   */
  addBase(rows: Iterable<Record<string, unknown>>): void {
    for (const row of rows) {
      const key = String(row[this.keyField]);
      const copies = this.base.get(key);
      if (copies) copies.push(row);
      else this.base.set(key, [row]);
    }
  }

  /** Apply a batch of upserted (full) records from one data block. */
  addRecords(rows: Iterable<Record<string, unknown>>): void {
    for (const row of rows) this.addRecord(row, undefined);
  }

  /**
   * Apply the records of one partial data block (IS_PARTIAL): each carries only `fields` (the block's partial
   * schema) and is merged column by column onto the older version of its key. The caller has checked the block
   * with `checkPartialMergeable`.
   */
  addPartialRecords(rows: Iterable<Record<string, unknown>>, fields: ReadonlySet<string>): void {
    for (const row of rows) this.addRecord(row, fields);
  }

  /** Apply deletes from one delete block. */
  addDeletes(deletes: Iterable<DeleteRecord>): void {
    for (const d of deletes) this.deltaMerge(d.recordKey, this.deleteVersion(d.orderingVal));
  }

  /** The surviving rows. */
  *rows(): IterableIterator<Record<string, unknown>> {
    const copies: Record<string, unknown>[] = [];
    for (const [key, rows] of this.base) {
      const logged = this.log.get(key);
      for (const [i, row] of rows.entries()) {
        const merged = logged === undefined ? row : this.finalMerge(row, logged);
        if (merged === undefined) continue;
        if (i === 0) yield merged;
        else copies.push(merged);
      }
    }
    for (const [key, version] of this.log) if (!this.base.has(key) && version.row) yield version.row;
    yield* copies;
  }

  private addRecord(row: Record<string, unknown>, fields: ReadonlySet<string> | undefined): void {
    const key = String(row[this.keyField]);
    const version: RecordVersion = row._hoodie_is_deleted === true
      ? this.deleteVersion(this.orderingOf(row))
      : { row, deleteOrdering: undefined, ...(fields === undefined ? {} : { fields }) };
    this.deltaMerge(key, version);
  }

  /** A delete with `orderingVal` (one value or one per ordering field); natural-order values → undefined. */
  private deleteVersion(orderingVal: unknown): RecordVersion {
    const natural = Array.isArray(orderingVal) ? orderingVal.every(isNaturalOrdering) : isNaturalOrdering(orderingVal);
    return { row: undefined, deleteOrdering: natural ? undefined : Array.isArray(orderingVal) ? orderingVal : [orderingVal] };
  }

  /** Merge a new log version into the key's log version so far (Hudi's `deltaMerge`). */
  private deltaMerge(key: string, incoming: RecordVersion): void {
    const existing = this.log.get(key);
    this.log.set(key, existing === undefined ? incoming : mergeVersions(existing, incoming, this.olderWins(existing, incoming)));
  }

  /** A base row merged with its key's log version (Hudi's `finalMerge`); undefined when the merge deletes it. */
  private finalMerge(row: Record<string, unknown>, logged: RecordVersion): Record<string, unknown> | undefined {
    const base: RecordVersion = { row, deleteOrdering: undefined };
    return mergeVersions(base, logged, this.olderWins(base, logged)).row;
  }

  /**
   * Does the older version beat the newer one? Only under event-time ordering, when neither is a natural-order
   * delete, and the older ordering value is strictly greater (ties and incomparable values go to the newer).
   */
  private olderWins(older: RecordVersion, newer: RecordVersion): boolean {
    if (!this.eventTime) return false;
    const o = this.orderingOfVersion(older);
    const n = this.orderingOfVersion(newer);
    if (o === undefined || n === undefined) return false;
    return !newerWins(this.options.orderingKinds, n, o);
  }

  /** A version's ordering values: its row's, or a delete's (undefined for a natural-order delete). */
  private orderingOfVersion(v: RecordVersion): unknown[] | undefined {
    return v.row ? this.orderingOf(v.row) : v.deleteOrdering;
  }

  private orderingOf(row: Record<string, unknown>): unknown[] {
    return this.options.orderingFields.map((f) => row[f]);
  }
}
