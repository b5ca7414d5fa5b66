// Test tables with partial-update log blocks (docs/partial-updates.md), built by hand on a writable fixture copy:
// a deltacommit that appends one log file to a file group, its blocks written with lakelet's own log writer —
// full or partial AVRO_DATA blocks (IS_PARTIAL=true, a partial SCHEMA header: the five meta fields plus the
// chosen columns, in table order, as Hudi's generateProjectionSchema + addMetadataFields make it) and DELETE
// blocks — and the instant's requested, inflight and completed files in the table's own timeline layout.
import { parseTableConfig, type TableConfig } from '../../src/config/table-config.js';
import { encodeLogBlock, type LogBlockHeader } from '../../src/format/log/block.js';
import { encodeAvroDataBlockContent } from '../../src/format/log/content.js';
import { encodeDeleteBlockContent } from '../../src/format/log/delete-block.js';
import { logFileName } from '../../src/file-group/file-names.js';
import { completedInstantFilePath, instantFilePath, partitionFilePath, PROPERTIES_PATH } from '../../src/layout.js';
import { META_FIELDS } from '../../src/schema/table-schema.js';
import type { Storage } from '../../src/storage/storage.js';
import { commitMetadataBytes, workloadProfileBytes } from '../../src/timeline/commit-metadata-avro.js';

type Row = Record<string, unknown>;

/** One block of the appended log file. */
export type PartialLogBlock =
  /** Full records with the table's writer schema (meta fields included). */
  | { kind: 'full'; records: Row[] }
  /** Partial records: the meta fields plus `columns`; the header says IS_PARTIAL (default `true`). */
  | { kind: 'partial'; columns: string[]; records: Row[]; isPartial?: string }
  /** Deletes by key (natural order unless `orderingVal` is given). */
  | { kind: 'delete'; keys: { recordKey: string; partitionPath: string; orderingVal?: unknown }[] };

/** A hand-built deltacommit appending one log file. */
export interface PartialDeltaCommit {
  /** Requested time of the deltacommit (the blocks' INSTANT_TIME). */
  instant: string;
  /** Completion time (layout 2 only; default: the requested time + 1 ms). */
  completion?: string;
  partitionPath: string;
  fileId: string;
  /** The log file's base instant: the slice's base instant (v6) or the deltacommit's own instant (v8+, as Spark names it). */
  logBaseInstant: string;
  /** Log version (default 1). */
  logVersion?: number;
  blocks: PartialLogBlock[];
  /** Leave the instant inflight (not completed): its blocks must not count. */
  inflightOnly?: boolean;
  /** Extra header entries for every block (e.g. to test header checks). */
  extraHeader?: LogBlockHeader;
}

/** The table's config as read from its `hoodie.properties`. */
export async function tableConfigOf(storage: Storage): Promise<TableConfig> {
  return parseTableConfig(new TextDecoder().decode(await storage.read(PROPERTIES_PATH)));
}

/**
 * The writer schema with meta fields (Avro JSON) of a table: the table's create schema with the five meta
 * fields (nullable strings, `doc` "", default null — exactly as the fixtures' log SCHEMA headers have them) first.
 */
export function writerSchemaOf(config: TableConfig): { type: 'record'; name: string; namespace: string; fields: Row[] } {
  const create = JSON.parse(config.createSchema ?? '') as { name: string; namespace: string; fields: Row[] };
  const meta = META_FIELDS.map((name) => ({ name, type: ['null', 'string'], doc: '', default: null }));
  const data = create.fields.map((f) => ({ ...f, type: nullFirst(f.type), default: null }));
  return { type: 'record', name: create.name, namespace: create.namespace, fields: [...meta, ...data] };
}

/** `[T, "null"]` → `["null", T]` (the writer schema Spark logs, with defaults null). */
function nullFirst(type: unknown): unknown {
  if (Array.isArray(type) && type.length === 2 && type[1] === 'null') return ['null', type[0]];
  return type;
}

/** The partial schema of `columns`: the meta fields plus those columns, in the writer schema's order. */
export function partialSchemaOf(writer: ReturnType<typeof writerSchemaOf>, columns: readonly string[]): ReturnType<typeof writerSchemaOf> {
  const missing = columns.filter((c) => !writer.fields.some((f) => f.name === c));
  if (missing.length > 0) throw new Error(`partialSchemaOf: unknown columns ${missing.join(', ')}`);
  return { ...writer, fields: writer.fields.filter((f) => META_FIELDS.includes(f.name as never) || columns.includes(f.name as string)) };
}

/** The table's data schema without meta fields (what a deltacommit's extraMetadata.schema holds). */
function dataSchemaText(writer: ReturnType<typeof writerSchemaOf>): string {
  return JSON.stringify({ ...writer, fields: writer.fields.filter((f) => !META_FIELDS.includes(f.name as never)) });
}

/**
 * Append the deltacommit's log file and write its instant files (requested, inflight, completed — layout 1 or 2
 * as the table's) into `storage`. Returns the log file's path.
 */
export async function appendPartialDeltaCommit(storage: Storage, commit: PartialDeltaCommit): Promise<string> {
  const config = await tableConfigOf(storage);
  const writer = writerSchemaOf(config);
  const writerText = JSON.stringify(writer);
  const parts: Uint8Array[] = [];
  for (const b of commit.blocks) {
    const header: LogBlockHeader = { INSTANT_TIME: commit.instant };
    if (b.kind === 'delete') {
      header.SCHEMA = writerText;
      parts.push(encodeLogBlock('DELETE', { ...header, ...commit.extraHeader }, encodeDeleteBlockContent(b.keys)));
    } else if (b.kind === 'full') {
      header.SCHEMA = writerText;
      parts.push(encodeLogBlock('AVRO_DATA', { ...header, ...commit.extraHeader }, encodeAvroDataBlockContent(writerText, b.records)));
    } else {
      const schema = JSON.stringify(partialSchemaOf(writer, b.columns));
      header.SCHEMA = schema;
      header.IS_PARTIAL = b.isPartial ?? 'true';
      parts.push(encodeLogBlock('AVRO_DATA', { ...header, ...commit.extraHeader }, encodeAvroDataBlockContent(schema, b.records)));
    }
  }
  const bytes = concat(parts);
  const version = commit.logVersion ?? 1;
  const name = logFileName(commit.fileId, commit.logBaseInstant, version, '0-1-1');
  const path = partitionFilePath(commit.partitionPath, name);
  await storage.write(path, bytes);

  const layout = config.timelineLayoutVersion === 1 ? 1 : 2;
  const stat = {
    fileId: commit.fileId, path, partitionPath: commit.partitionPath, prevCommit: commit.logBaseInstant,
    numWrites: commit.blocks.reduce((n, b) => n + (b.kind === 'delete' ? b.keys.length : b.records.length), 0),
    numDeletes: commit.blocks.reduce((n, b) => n + (b.kind === 'delete' ? b.keys.length : 0), 0),
    numUpdateWrites: commit.blocks.reduce((n, b) => n + (b.kind === 'delete' ? 0 : b.records.length), 0),
    numInserts: 0, totalWriteBytes: bytes.length, fileSizeInBytes: bytes.length,
    logVersion: version, logOffset: 0, baseFile: '', logFiles: [name],
  };
  await storage.write(instantFilePath(config, commit.instant, 'deltacommit', 'REQUESTED'), new Uint8Array(0));
  await storage.write(instantFilePath(config, commit.instant, 'deltacommit', 'INFLIGHT'), workloadProfileBytes(layout, {
    operationType: 'UPSERT',
    partitions: { [commit.partitionPath]: { numInserts: 0, fileGroups: [{ fileId: commit.fileId, prevCommit: commit.logBaseInstant, numUpdateWrites: stat.numUpdateWrites }] } },
  }));
  if (commit.inflightOnly) return path;
  const md = commitMetadataBytes(layout, { partitionToWriteStats: { [commit.partitionPath]: [stat] }, extraMetadata: { schema: dataSchemaText(writer) }, operationType: 'UPSERT' });
  const completedPath = layout === 1
    ? instantFilePath(config, commit.instant, 'deltacommit', 'COMPLETED')
    : completedInstantFilePath(config, commit.instant, 'deltacommit', commit.completion ?? String(BigInt(commit.instant) + 1n));
  await storage.write(completedPath, md);
  return path;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
