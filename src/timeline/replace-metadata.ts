// `<t>.replacecommit.requested` of v6 tables: Avro HoodieRequestedReplaceMetadata — all fields null for
// insert_overwrite / insert_overwrite_table / delete_partition, a clustering plan for v6 clustering.
import { corruptFile } from '../errors.js';
import { readAvroContainer, writeAvroContainer } from '../format/avro/container.js';
import { REQUESTED_REPLACE_METADATA_SCHEMA } from './avro-schemas.js';
import type { TimelineAvroOptions } from './rollback-metadata.js';

/** The content of `<t>.replacecommit.requested`. Every field is nullable; Hudi's insert_overwrite writes all null. */
export interface RequestedReplaceMetadata {
  /** `null` for insert_overwrite in Hudi 0.14/0.15 files; `CLUSTER` for clustering. */
  operationType: string | null;
  /** The clustering plan (`HoodieClusteringPlan` in the lakelet Avro value model), or null. */
  clusteringPlan: unknown;
  extraMetadata: Record<string, string> | null;
  /** Null in insert_overwrite files (the schema default 1 applies only to readers with a missing field). */
  version: number | null;
}

const SCHEMA_JSON = JSON.stringify(REQUESTED_REPLACE_METADATA_SCHEMA);

/**
 * Serialize `<t>.replacecommit.requested` (Avro object container, null codec). Omitted fields are null, so
 * `serializeRequestedReplaceMetadata({})` is exactly what Hudi writes for an insert_overwrite.
 */
export function serializeRequestedReplaceMetadata(md: Partial<RequestedReplaceMetadata> = {}, options: TimelineAvroOptions = {}): Uint8Array {
  const record = {
    operationType: md.operationType ?? null,
    clusteringPlan: md.clusteringPlan ?? null,
    extraMetadata: md.extraMetadata === undefined || md.extraMetadata === null ? null : { ...md.extraMetadata },
    version: md.version ?? null,
  };
  return writeAvroContainer(SCHEMA_JSON, [record], options.syncMarker === undefined ? {} : { syncMarker: options.syncMarker });
}

/** Parse `<t>.replacecommit.requested` (an empty file reads as all null). Bad shapes → `CORRUPT_FILE`. */
export function parseRequestedReplaceMetadata(bytes: Uint8Array, path: string): RequestedReplaceMetadata {
  if (bytes.length === 0) return { operationType: null, clusteringPlan: null, extraMetadata: null, version: null };
  const { records } = readAvroContainer(bytes, path);
  const r = records[0];
  if (records.length !== 1 || r === null || typeof r !== 'object' || Array.isArray(r)) {
    throw corruptFile(`replace metadata: expected one record, found ${records.length}`, path);
  }
  const rec = r as Record<string, unknown>;
  const op = rec.operationType ?? null;
  if (op !== null && typeof op !== 'string') throw corruptFile('replace metadata: operationType is not a string', path);
  const version = rec.version ?? null;
  if (version !== null && typeof version !== 'number') throw corruptFile('replace metadata: version is not an int', path);
  let extraMetadata: Record<string, string> | null = null;
  if (rec.extraMetadata !== null && rec.extraMetadata !== undefined) {
    if (typeof rec.extraMetadata !== 'object') throw corruptFile('replace metadata: extraMetadata is not a map', path);
    extraMetadata = {};
    for (const [k, v] of Object.entries(rec.extraMetadata as Record<string, unknown>)) {
      if (typeof v !== 'string') throw corruptFile(`replace metadata: extraMetadata[${JSON.stringify(k)}] is not a string`, path);
      extraMetadata[k] = v;
    }
  }
  return { operationType: op, clusteringPlan: rec.clusteringPlan ?? null, extraMetadata, version };
}
