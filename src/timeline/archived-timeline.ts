// The v6 archived timeline (hudi-format.md §3.5): `.hoodie/archived/.commits_.archive.<N>_<token>` log files
// whose AVRO_DATA blocks hold HoodieArchivedMetaEntry records (one per archived timeline file). Encoding an
// archive file, parsing one, and the deduplicated view of archived instants with their commit metadata.
import { corruptFile } from '../errors.js';
import { parseLogFileName } from '../file-group/file-names.js';
import { type AvroSchema, parseAvroSchema } from '../format/avro/schema.js';
import { encodeLogBlock, scanLogBlocks } from '../format/log/block.js';
import { decodeAvroDataBlock, encodeAvroDataBlockContent } from '../format/log/content.js';
import { REQUESTED_REPLACE_METADATA_SCHEMA, ROLLBACK_METADATA_SCHEMA } from './avro-schemas.js';
import { CLEAN_METADATA_SCHEMA, CLEANER_PLAN_SCHEMA, cleanerPlanFromRecord, cleanMetadataFromRecord, type CleanerPlan, type CleanMetadata } from './clean-metadata.js';
import { commitMetadataFromObject, type CommitMetadata } from './commit-metadata.js';
import { COMPACTION_PLAN_SCHEMA } from './compaction-plan.js';
import { compareInstantTimes, TIMELINE_ACTIONS, type Action, type Instant, type InstantState } from './instant.js';
import { SAVEPOINT_METADATA_SCHEMA } from './savepoint-metadata.js';

const STR = { type: 'string', 'avro.java.string': 'String' } as const;
const OPT_STR = ['null', STR] as const;
const OPT_LONG = ['null', 'long'] as const;
const n = (name: string, type: unknown) => ({ name, type, default: null });

/** `HoodieCommitMetadata` (Avro) as Hudi embeds it (copied from a Hudi-written commit file's header). */
export const COMMIT_METADATA_AVRO_SCHEMA = {
  type: 'record',
  name: 'HoodieCommitMetadata',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    n('partitionToWriteStats', ['null', {
      type: 'map',
      values: {
        type: 'array',
        items: {
          type: 'record',
          name: 'HoodieWriteStat',
          fields: [
            n('fileId', OPT_STR), n('path', OPT_STR), n('prevCommit', OPT_STR), n('numWrites', OPT_LONG), n('numDeletes', OPT_LONG),
            n('numUpdateWrites', OPT_LONG), n('totalWriteBytes', OPT_LONG), n('totalWriteErrors', OPT_LONG), n('partitionPath', OPT_STR),
            n('totalLogRecords', OPT_LONG), n('totalLogFiles', OPT_LONG), n('totalUpdatedRecordsCompacted', OPT_LONG), n('numInserts', OPT_LONG),
            n('totalLogBlocks', OPT_LONG), n('totalCorruptLogBlock', OPT_LONG), n('totalRollbackBlocks', OPT_LONG), n('fileSizeInBytes', OPT_LONG),
            n('logVersion', ['null', 'int']), n('logOffset', OPT_LONG), n('baseFile', OPT_STR),
            n('logFiles', ['null', { type: 'array', items: STR, default: null }]),
            n('cdcStats', ['null', { type: 'map', values: 'long', 'avro.java.string': 'String', default: null }]),
            n('prevBaseFile', OPT_STR), n('minEventTime', OPT_LONG), n('maxEventTime', OPT_LONG),
            n('runtimeStats', ['null', {
              type: 'record',
              name: 'HoodieRuntimeStats',
              fields: [n('totalScanTime', OPT_LONG), n('totalCreateTime', OPT_LONG), n('totalUpsertTime', OPT_LONG)],
            }]),
            n('totalLogFilesCompacted', OPT_LONG), n('totalLogReadTimeMs', OPT_LONG), n('totalLogSizeCompacted', OPT_LONG), n('tempPath', OPT_STR),
            n('numUpdates', OPT_LONG),
          ],
        },
      },
      'avro.java.string': 'String',
    }]),
    n('compacted', ['null', 'boolean']),
    n('extraMetadata', ['null', { type: 'map', values: STR, 'avro.java.string': 'String', default: null }]),
    { name: 'version', type: ['int', 'null'], default: 1 },
    n('operationType', OPT_STR),
  ],
} as const;

/** `HoodieReplaceCommitMetadata` (Avro), write stats by reference to `HoodieWriteStat`. */
export const REPLACE_COMMIT_METADATA_AVRO_SCHEMA = {
  type: 'record',
  name: 'HoodieReplaceCommitMetadata',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    n('partitionToWriteStats', ['null', { type: 'map', values: { type: 'array', items: 'HoodieWriteStat' }, 'avro.java.string': 'String' }]),
    n('compacted', ['null', 'boolean']),
    n('extraMetadata', ['null', { type: 'map', values: STR, 'avro.java.string': 'String' }]),
    { name: 'version', type: ['int', 'null'], default: 1 },
    n('operationType', OPT_STR),
    n('partitionToReplaceFileIds', ['null', { type: 'map', values: { type: 'array', items: STR }, 'avro.java.string': 'String' }]),
  ],
} as const;

/** Deprecated `HoodieCompactionMetadata` (still a field of archived entries). */
const COMPACTION_METADATA_AVRO_SCHEMA = {
  type: 'record',
  name: 'HoodieCompactionMetadata',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    {
      name: 'partitionToCompactionWriteStats',
      type: ['null', {
        type: 'map',
        values: {
          type: 'array',
          items: {
            type: 'record',
            name: 'HoodieCompactionWriteStat',
            fields: [n('partitionPath', OPT_STR), n('totalLogRecords', OPT_LONG), n('totalLogFiles', OPT_LONG), n('totalUpdatedRecordsCompacted', OPT_LONG), n('hoodieWriteStat', ['null', 'HoodieWriteStat'])],
          },
        },
        'avro.java.string': 'String',
      }],
    },
  ],
} as const;

/** `HoodieArchivedMetaEntry` (apache/hudi `HoodieArchivedMetaEntry.avsc`, Hudi 0.14 fields), nested types inline. */
export const ARCHIVED_META_ENTRY_SCHEMA = {
  type: 'record',
  name: 'HoodieArchivedMetaEntry',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    n('hoodieCommitMetadata', ['null', COMMIT_METADATA_AVRO_SCHEMA]),
    n('hoodieCleanMetadata', ['null', CLEAN_METADATA_SCHEMA]),
    n('hoodieCompactionMetadata', ['null', COMPACTION_METADATA_AVRO_SCHEMA]),
    n('hoodieRollbackMetadata', ['null', ROLLBACK_METADATA_SCHEMA]),
    n('hoodieSavePointMetadata', ['null', SAVEPOINT_METADATA_SCHEMA]),
    n('commitTime', OPT_STR),
    n('actionType', OPT_STR),
    { name: 'version', type: ['int', 'null'], default: 1 },
    n('hoodieCompactionPlan', ['null', COMPACTION_PLAN_SCHEMA]),
    n('hoodieCleanerPlan', ['null', CLEANER_PLAN_SCHEMA]),
    n('actionState', OPT_STR),
    n('hoodieReplaceCommitMetadata', ['null', REPLACE_COMMIT_METADATA_AVRO_SCHEMA]),
    n('hoodieRequestedReplaceMetadata', ['null', REQUESTED_REPLACE_METADATA_SCHEMA]),
    n('HoodieInflightReplaceMetadata', ['null', 'HoodieCommitMetadata']),
  ],
} as const;

const ARCHIVED_JSON = JSON.stringify(ARCHIVED_META_ENTRY_SCHEMA);
let archivedSchema: AvroSchema | undefined;
/** The parsed {@link ARCHIVED_META_ENTRY_SCHEMA}. */
export function archivedMetaEntrySchema(): AvroSchema {
  archivedSchema ??= parseAvroSchema(ARCHIVED_JSON);
  return archivedSchema;
}

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

/** One archived timeline file (`HoodieArchivedMetaEntry`), interpreted. */
export interface ArchivedEntry {
  commitTime: string;
  /** The action as archived (`commit`, `deltacommit`, `replacecommit`, `clean`, `rollback`, `compaction`, …). */
  actionType: string;
  state: InstantState;
  /** Commit metadata of commit/deltacommit/replacecommit entries (completed, or an inflight workload profile). */
  commitMetadata: CommitMetadata | undefined;
  cleanMetadata: CleanMetadata | undefined;
  cleanerPlan: CleanerPlan | undefined;
  /** The decoded record. */
  raw: Record<string, unknown>;
}

/** What {@link encodeArchiveEntries} archives per timeline file: its instant and its decoded content. */
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
  return encodeLogBlock('AVRO_DATA', { SCHEMA: ARCHIVED_JSON }, encodeAvroDataBlockContent(archivedMetaEntrySchema(), records));
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

const ACTIONS: ReadonlySet<string> = new Set(TIMELINE_ACTIONS);

/** Archived instants, deduplicated (an instant archived twice after a crash counts once). Pure. */
export class ArchivedTimeline {
  /** Completed archived instants, oldest first. */
  readonly instants: readonly Instant[];
  private readonly byTime = new Map<string, { instant: Instant; entry: ArchivedEntry }>();

  constructor(entries: readonly ArchivedEntry[]) {
    for (const e of entries) {
      if (e.state !== 'COMPLETED' || !ACTIONS.has(e.actionType)) continue;
      const action = e.actionType as Action;
      const instant: Instant = { requestedTime: e.commitTime, action, state: 'COMPLETED', completionTime: undefined, fileName: `${e.commitTime}.${action}` };
      if (!this.byTime.has(e.commitTime)) this.byTime.set(e.commitTime, { instant, entry: e });
    }
    this.instants = [...this.byTime.values()].map((x) => x.instant).sort((a, b) => compareInstantTimes(a.requestedTime, b.requestedTime));
  }

  /** Completed archived commits, deltacommits and replacecommits, oldest first. */
  completedWrites(): Instant[] {
    return this.instants.filter((i) => i.action === 'commit' || i.action === 'deltacommit' || i.action === 'replacecommit');
  }

  /** The archived completed instant with this requested time. */
  completedAt(requestedTime: string): Instant | undefined {
    return this.byTime.get(requestedTime)?.instant;
  }

  /** Commit metadata of an archived completed write, if archived with it. */
  commitMetadata(requestedTime: string): CommitMetadata | undefined {
    return this.byTime.get(requestedTime)?.entry.commitMetadata;
  }

  /** Clean metadata of an archived completed clean. */
  cleanMetadata(requestedTime: string): CleanMetadata | undefined {
    return this.byTime.get(requestedTime)?.entry.cleanMetadata;
  }
}
