// The layout-1 (v6) archived timeline's files (hudi-format.md §3.5): `.hoodie/archived/.commits_.archive.<N>_<token>`
// log files whose AVRO_DATA blocks hold HoodieArchivedMetaEntry records (one per archived timeline file).
// Naming, encoding and parsing an archive file.
import { corruptFile } from '../errors.js';
import { parseLogFileName } from '../file-group/file-names.js';
import type { AvroSchema } from '../format/avro/schema.js';
import { encodeLogBlock, scanLogBlocks } from '../format/log/block.js';
import { decodeAvroDataBlock, encodeAvroDataBlockContent } from '../format/log/content.js';
import { ARCHIVED_META_ENTRY_JSON, archivedMetaEntrySchema } from './archive-log-schemas.js';
import type { ArchivedEntry } from './archived-timeline.js';
import { cleanerPlanFromRecord, cleanMetadataFromRecord } from './clean-metadata.js';
import { commitMetadataFromObject, type CommitMetadata } from './commit-metadata.js';
import type { Instant, InstantState } from './instant.js';

/** Prefix of v6 archive log files (`ArchivedTimelineV1`: file id `commits`, extension `archive`). */
export const ARCHIVE_FILE_PREFIX = '.commits_.archive.';

/** Name of archive file version `version` (Hudi starts at 1). */
export function archiveFileName(version: number, writeToken = '1-0-1'): string {
  return `${ARCHIVE_FILE_PREFIX}${version}_${writeToken}`;
}

/** The version of an archive file name, or undefined when the name is not one. */
export function archiveFileVersion(name: string): number | undefined {
  const log = parseLogFileName(name);
  if (!log || log.extension !== 'archive' || log.fileId !== 'commits' || log.cdc) return undefined;
  return log.version;
}

/** What {@link encodeArchiveFile} archives per timeline file: its instant and its decoded content. */
export interface ArchiveEntryInput {
  instant: Instant;
  /**
   * The file's content decoded as a plain object (JSON commit files) or Avro record value (Avro files);
   * undefined for empty files.
   */
  content: Record<string, unknown> | undefined;
}

// ---- lakelet value → Avro record value, following a schema (Jackson's `convertValue` in Hudi) ----

function coerce(node: AvroSchema, v: unknown): unknown {
  switch (node.type) {
    case 'null':
      return v === null || v === undefined ? null : undefined;
    case 'union': {
      if (v === null || v === undefined) return node.branches.some((b) => b.type === 'null') ? null : undefined;
      for (const b of node.branches) {
        if (b.type === 'null') continue;
        const x = coerce(b, v);
        if (x !== undefined) return x;
      }
      return node.branches.some((b) => b.type === 'null') ? null : undefined;
    }
    case 'string':
      return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' ? String(v) : undefined;
    case 'boolean':
      return typeof v === 'boolean' ? v : undefined;
    case 'int':
    case 'long': {
      const x = typeof v === 'bigint' ? v : typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : undefined;
      if (x === undefined) return undefined;
      if (node.type === 'int') return typeof x === 'bigint' ? Number(x) : Number.isInteger(x) ? x : undefined;
      return typeof x === 'number' ? (Number.isSafeInteger(x) ? x : undefined) : x;
    }
    case 'float':
    case 'double':
      return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined;
    case 'array':
      return Array.isArray(v) ? v.map((x) => coerce(node.items, x)).filter((x) => x !== undefined) : undefined;
    case 'map': {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        const y = coerce(node.values, x);
        if (y !== undefined) out[k] = y;
      }
      return out;
    }
    case 'record': {
      if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof Uint8Array) return undefined;
      const src = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const f of node.fields) {
        const x = coerce(f.type, src[f.name]);
        if (x !== undefined) out[f.name] = x;
        else if (!f.hasDefault) return undefined;
      }
      return out;
    }
    default:
      return undefined;
  }
}

function fieldSchema(name: string): AvroSchema {
  const root = archivedMetaEntrySchema();
  if (root.type !== 'record') throw new Error('unreachable');
  const f = root.fields.find((x) => x.name === name);
  if (!f || f.type.type !== 'union') throw new Error(`unreachable: ${name}`);
  return f.type;
}

/**
 * The archived entry of one timeline file, as Hudi's `MetadataConversionUtils.createMetaWrapper` builds it:
 * commit metadata for commit/deltacommit (any state), replace metadata / inflight commit metadata /
 * requested replace metadata by state for replacecommit, clean metadata or cleaner plan for clean,
 * rollback metadata for completed rollbacks, the plan for requested compactions.
 */
export function archivedEntryRecord(input: ArchiveEntryInput): Record<string, unknown> {
  const { instant, content } = input;
  const entry: Record<string, unknown> = { commitTime: instant.requestedTime, actionType: instant.action, actionState: instant.state, version: 1 };
  const set = (field: string, value: unknown) => {
    if (value === undefined || value === null) return;
    const x = coerce(fieldSchema(field), value);
    if (x !== undefined && x !== null) entry[field] = x;
  };
  const completed = instant.state === 'COMPLETED';
  switch (instant.action) {
    case 'commit':
    case 'deltacommit':
      set('hoodieCommitMetadata', content ?? {});
      break;
    case 'replacecommit':
    case 'clustering':
      if (completed) set('hoodieReplaceCommitMetadata', content ?? {});
      else if (instant.state === 'INFLIGHT') set('HoodieInflightReplaceMetadata', content);
      else set('hoodieRequestedReplaceMetadata', content);
      break;
    case 'clean':
      if (completed) set('hoodieCleanMetadata', content);
      else set('hoodieCleanerPlan', content);
      break;
    case 'rollback':
      if (completed) set('hoodieRollbackMetadata', content);
      break;
    case 'savepoint':
      set('hoodieSavePointMetadata', content);
      break;
    case 'compaction':
    case 'logcompaction':
      if (instant.state === 'REQUESTED') set('hoodieCompactionPlan', content);
      break;
    default:
      break;
  }
  return entry;
}

/** Encode an archive log file: one AVRO_DATA block of HoodieArchivedMetaEntry records, header SCHEMA (as Hudi). */
export function encodeArchiveFile(inputs: readonly ArchiveEntryInput[]): Uint8Array {
  const records = inputs.map(archivedEntryRecord);
  return encodeLogBlock('AVRO_DATA', { SCHEMA: ARCHIVED_META_ENTRY_JSON }, encodeAvroDataBlockContent(archivedMetaEntrySchema(), records));
}

// ---- reading ----

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) ? (v as Record<string, unknown>) : {});

/** Commit metadata from a HoodieCommitMetadata / HoodieReplaceCommitMetadata record value. */
export function commitMetadataFromRecord(raw: Record<string, unknown>, path = 'archived timeline'): CommitMetadata {
  return commitMetadataFromObject(raw, path);
}

const STATES: ReadonlySet<string> = new Set(['REQUESTED', 'INFLIGHT', 'COMPLETED']);

/**
 * Parse an archive log file into its entries. Corrupt regions are skipped (as Hudi's log reader does);
 * a data block that does not decode → `CORRUPT_FILE` naming the file.
 */
export function parseArchiveFile(bytes: Uint8Array, path: string): ArchivedEntry[] {
  const out: ArchivedEntry[] = [];
  for (const block of scanLogBlocks(bytes, path).blocks) {
    if (block.type !== 'AVRO_DATA') continue;
    for (const r of decodeAvroDataBlock(block, path).records) {
      const commitTime = str(r.commitTime);
      const actionType = str(r.actionType);
      if (commitTime === undefined || actionType === undefined) throw corruptFile('archived timeline: entry without commitTime or actionType', path, block.offset);
      const state = (str(r.actionState) ?? 'COMPLETED') as InstantState;
      if (!STATES.has(state)) throw corruptFile(`archived timeline: unknown actionState ${JSON.stringify(state)}`, path, block.offset);
      const commit = r.hoodieReplaceCommitMetadata ?? r.hoodieCommitMetadata ?? r.HoodieInflightReplaceMetadata;
      out.push({
        commitTime,
        actionType,
        state,
        commitMetadata: commit === null || commit === undefined ? undefined : commitMetadataFromRecord(obj(commit), path),
        cleanMetadata: r.hoodieCleanMetadata ? cleanMetadataFromRecord(obj(r.hoodieCleanMetadata), path) : undefined,
        cleanerPlan: r.hoodieCleanerPlan ? cleanerPlanFromRecord(obj(r.hoodieCleanerPlan), path) : undefined,
        raw: r,
      });
    }
  }
  return out;
}

