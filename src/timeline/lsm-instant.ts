// One archived instant of the layout-2 (LSM) history: the `HoodieLSMTimelineInstant` row (apache/hudi
// `HoodieLSMTimelineInstant.avsc`: instantTime, completionTime, action, metadata, plan, version = 1), what
// Hudi's `MetadataConversionUtils.createLSMTimelineInstant` puts in it for each action, the parquet bytes of a
// history data file (through lakelet's parquet writer/reader: no meta columns, no bloom filter, as Hudi's archive
// writer with `populateMetaFields=false`), and the archived entries a reader makes of its rows.
import { corruptFile } from '../errors.js';
import { parseAvroSchema, type AvroRecordSchema } from '../format/avro/schema.js';
import { bufferFromBytes, readParquetFooter, readParquetRows } from '../format/parquet/read.js';
import { writeBaseFile } from '../format/parquet/write.js';
import type { ArchivedEntry } from './archived-timeline.js';
import { parseCleanerPlan, parseCleanMetadata } from './clean-metadata.js';
import { parseCommitMetadata } from './commit-metadata.js';
import { WRITE_ACTIONS, type Instant } from './instant.js';

/** `LSMTimeline.LSM_TIMELINE_INSTANT_VERSION_1`. */
export const LSM_INSTANT_VERSION = 1;

const STR = { type: 'string', 'avro.java.string': 'String' } as const;

/**
 * `HoodieLSMTimelineInstant` as Hudi's generated class spells it (`getClassSchema()`, strings as Java
 * `String`): the `parquet.avro.schema` of every history data file.
 */
export const LSM_INSTANT_SCHEMA = {
  type: 'record',
  name: 'HoodieLSMTimelineInstant',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    { name: 'instantTime', type: ['null', STR], default: null },
    { name: 'completionTime', type: ['null', STR], default: null },
    { name: 'action', type: ['null', STR], default: null },
    { name: 'metadata', type: ['null', 'bytes'], default: null },
    { name: 'plan', type: ['null', 'bytes'], default: null },
    { name: 'version', type: 'int', default: 1 },
  ],
} as const;

let parsed: AvroRecordSchema | undefined;
/** The parsed {@link LSM_INSTANT_SCHEMA} (its JSON text kept as the footer writes it). */
export function lsmInstantSchema(): AvroRecordSchema {
  parsed ??= parseAvroSchema(JSON.stringify(LSM_INSTANT_SCHEMA)) as AvroRecordSchema;
  return parsed;
}

/** One row of a history data file. */
export interface LsmInstantRow {
  instantTime: string;
  completionTime: string | null;
  /** The completed action (`commit`, `deltacommit`, `replacecommit`, `clean`, `rollback`, …). */
  action: string;
  /** The completed instant file's bytes; null when it was empty. */
  metadata: Uint8Array | null;
  /** The plan's bytes (clean, replacecommit/clustering, compaction), else null. */
  plan: Uint8Array | null;
  version: number;
}

/** A timeline file of the instant being archived, with its bytes. */
export interface TimelineFileBytes {
  instant: Instant;
  bytes: Uint8Array;
}

/** What one archived instant is made of: its completed file and whichever pending files are still there. */
export interface LsmInstantInput {
  completed: TimelineFileBytes;
  requested?: TimelineFileBytes | undefined;
  inflight?: TimelineFileBytes | undefined;
}

const nonEmpty = (f: TimelineFileBytes | undefined): Uint8Array | undefined => (f && f.bytes.length > 0 ? f.bytes : undefined);

/**
 * The row of one archived instant, as `createLSMTimelineInstant` builds it: the completed file's bytes as
 * `metadata`, and by the pending action: a clean's plan (its requested file, else the inflight one), a
 * replacecommit's or clustering's requested file or — when not empty — its inflight file, a compaction's or
 * log compaction's requested plan; no plan for other actions.
 */
export function lsmInstantRow(input: LsmInstantInput): LsmInstantRow {
  const { completed, requested, inflight } = input;
  const pending = requested ?? inflight;
  let plan: Uint8Array | undefined;
  switch (pending?.instant.action) {
    case 'clean':
      plan = pending.bytes;
      break;
    case 'replacecommit':
    case 'clustering':
      plan = nonEmpty(inflight) ?? nonEmpty(requested);
      break;
    case 'compaction':
    case 'logcompaction':
      plan = requested?.bytes;
      break;
    default:
      break;
  }
  return {
    instantTime: completed.instant.requestedTime,
    completionTime: completed.instant.completionTime ?? null,
    action: completed.instant.action,
    metadata: nonEmpty(completed) ?? null,
    plan: plan ?? null,
    version: LSM_INSTANT_VERSION,
  };
}

/** A history data file holding `rows` in the order given (Hudi writes them by instant time). */
export function encodeLsmFile(rows: readonly LsmInstantRow[]): Uint8Array {
  return writeBaseFile(rows as unknown as Record<string, unknown>[], { schema: lsmInstantSchema(), populateMetaFields: false, bloomFilter: false });
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const bytes = (v: unknown): Uint8Array | null => (v instanceof Uint8Array ? v : null);

/**
 * The rows of a history data file. Not parquet, or a row without instantTime or action → `CORRUPT_FILE`
 * naming `path`.
 */
export async function decodeLsmFile(data: Uint8Array, path: string): Promise<LsmInstantRow[]> {
  const file = bufferFromBytes(data);
  const footer = await readParquetFooter(file, path);
  for (const c of ['instantTime', 'action']) if (!footer.columns.includes(c)) throw corruptFile(`archived timeline: history file has no ${c} column`, path);
  const rows = await readParquetRows(file, footer, path, { columns: LSM_INSTANT_SCHEMA.fields.map((f) => f.name) });
  return rows.map((r, i) => {
    const instantTime = str(r.instantTime);
    const action = str(r.action);
    if (instantTime === null || action === null) throw corruptFile(`archived timeline: row ${i} has no instantTime or action`, path);
    return { instantTime, completionTime: str(r.completionTime), action, metadata: bytes(r.metadata), plan: bytes(r.plan), version: typeof r.version === 'number' ? r.version : LSM_INSTANT_VERSION };
  });
}

/**
 * The archived entry of a history row: completed, with commit metadata for writes and clean metadata and plan
 * for cleans decoded from the raw instant bytes (Avro or JSON). Bytes that do not decode → `CORRUPT_FILE` naming
 * `path`.
 */
export function lsmArchivedEntry(row: LsmInstantRow, path: string): ArchivedEntry {
  const write = WRITE_ACTIONS.has(row.action);
  const clean = row.action === 'clean';
  return {
    commitTime: row.instantTime,
    completionTime: row.completionTime ?? undefined,
    actionType: row.action,
    state: 'COMPLETED',
    commitMetadata: write ? parseCommitMetadata(row.metadata ?? new Uint8Array(0), path) : undefined,
    cleanMetadata: clean && row.metadata ? parseCleanMetadata(row.metadata, path) : undefined,
    cleanerPlan: clean && row.plan && row.plan.length > 0 ? parseCleanerPlan(row.plan, path) : undefined,
    raw: { ...row },
  };
}
