// HoodieRecord: one incoming record of a write after validation and key generation — its key,
// partition, data fields (lakelet's value model), ordering values and whether it deletes the key.

/** A record on its way into the table. */
export interface HoodieRecord {
  recordKey: string;
  partitionPath: string;
  /** Data fields (no meta fields), validated against the table schema. */
  data: Record<string, unknown>;
  /** Values of the ordering fields (empty when the table has none). */
  ordering: unknown[];
  /** True for deletes (`delete()`, or `_hoodie_is_deleted = true`). */
  isDelete: boolean;
  /** Position in the caller's input, for error messages. */
  index: number;
}
