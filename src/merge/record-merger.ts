// Merging the versions of records within one file slice (hudi-format.md §8): base rows, then log data and
// delete blocks in log order, under event-time or commit-time ordering, with Hudi's delete semantics.
import type { RecordMergeMode } from '../config/table-config.js';
import type { OrderingKind } from '../schema/compare.js';
import { newerWins, usesEventTime } from './ordering.js';

/** How records are compared while merging. */
export interface RecordMergerOptions {
  mode: RecordMergeMode;
  /** Ordering fields (event-time ordering); empty = arrival order decides. */
  orderingFields: readonly string[];
  /** Comparison kind (and decimal scale) of each ordering field. */
  orderingKinds: readonly OrderingKind[];
  /** Field holding the record key (default `_hoodie_record_key`). */
  keyField?: string;
}

/** A delete from a DELETE block. */
export interface DeleteRecord {
  recordKey: string;
  partitionPath?: string | null | undefined;
  /** The delete's ordering value; 0, 0n or null mean "natural order" (the delete wins by arrival). */
  orderingVal?: unknown;
}

interface Entry {
  row: Record<string, unknown> | undefined;
  /** For tombstones: the delete's ordering values, or undefined for natural-order deletes. */
  ordering: unknown[] | undefined;
}

/** True for Hudi's "natural order" ordering value (`0`, `0n`, null, absent). */
export function isNaturalOrdering(v: unknown): boolean {
  return v === undefined || v === null || v === 0 || v === 0n || v === '0';
}

/**
 * Merges the records of one file slice. Feed base rows first, then log blocks in order; `rows()` gives
 * the surviving records (base order first, then new keys in arrival order).
 */
export class RecordMerger {
  private readonly entries = new Map<string, Entry>();
  /** Further copies of a key the base file holds more than once (a non-deduplicating insert): each merged alone. */
  private readonly copies = new Map<string, Entry[]>();
  private readonly options: RecordMergerOptions;
  private readonly keyField: string;

  constructor(options: RecordMergerOptions) {
    this.options = options;
    this.keyField = options.keyField ?? '_hoodie_record_key';
  }

  /** Number of keys tracked (live or deleted). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Add base-file rows (they start the merge). A key the base holds twice (Hudi's insert does not deduplicate)
   * keeps both copies, as Hudi's readers and compaction do: each copy is merged with the log records on its own.
   */
  addBase(rows: Iterable<Record<string, unknown>>): void {
    for (const row of rows) {
      const key = String(row[this.keyField]);
      if (!this.entries.has(key)) this.entries.set(key, { row, ordering: undefined });
      else this.copies.set(key, [...(this.copies.get(key) ?? []), { row, ordering: undefined }]);
    }
  }

  /** Apply a batch of upserted records from one data block. */
  addRecords(rows: Iterable<Record<string, unknown>>): void {
    for (const row of rows) {
      if (row._hoodie_is_deleted === true) {
        this.delete({ recordKey: String(row[this.keyField]), orderingVal: this.orderingOf(row) });
        continue;
      }
      const key = String(row[this.keyField]);
      const current = this.entries.get(key);
      if (!current || this.newWins(current, this.orderingOf(row))) this.entries.set(key, { row, ordering: undefined });
      for (const [i, copy] of (this.copies.get(key) ?? []).entries()) {
        if (this.newWins(copy, this.orderingOf(row))) (this.copies.get(key) as Entry[])[i] = { row, ordering: undefined };
      }
    }
  }

  /** Apply deletes from one delete block. */
  addDeletes(deletes: Iterable<DeleteRecord>): void {
    for (const d of deletes) this.delete(d);
  }

  /** The surviving rows. */
  *rows(): IterableIterator<Record<string, unknown>> {
    for (const e of this.entries.values()) if (e.row) yield e.row;
    for (const list of this.copies.values()) for (const e of list) if (e.row) yield e.row;
  }

  private delete(d: DeleteRecord): void {
    const natural = Array.isArray(d.orderingVal) ? d.orderingVal.every(isNaturalOrdering) : isNaturalOrdering(d.orderingVal);
    const ordering = natural ? undefined : Array.isArray(d.orderingVal) ? d.orderingVal : [d.orderingVal];
    const list = this.copies.get(d.recordKey) ?? [];
    for (const [i, copy] of list.entries()) if (ordering === undefined || this.newWins(copy, ordering)) list[i] = { row: undefined, ordering };
    const current = this.entries.get(d.recordKey);
    if (current && ordering !== undefined && !this.newWins(current, ordering)) return;
    this.entries.set(d.recordKey, { row: undefined, ordering });
  }

  private orderingOf(row: Record<string, unknown>): unknown[] {
    return this.options.orderingFields.map((f) => row[f]);
  }

  /** Does a new version with `ordering` replace `current`? Later arrivals win ties. */
  private newWins(current: Entry, ordering: unknown[]): boolean {
    if (!usesEventTime(this.options.mode, this.options)) return true;
    const old = current.row ? this.orderingOf(current.row) : current.ordering;
    return old === undefined || newerWins(this.options.orderingKinds, ordering, old);
  }
}
