// "Can lakelet maintain this table?": the guard every mutating operation passes before it writes anything.
// lakelet writes table versions 6 (timeline layout 1), 8 and 9 (layout 2; Hudi 1.0/1.1), parquet, without a
// metadata table (v8/v9: with one of the partitions lakelet maintains) or partial updates (CDC only in a known mode), merging by event
// time or commit time (v8: by payload class and merge strategy id; v9: by merge mode alone); anything else is
// refused with UNSUPPORTED naming the property.
// The one opt-in: disabling a v6 table's metadata table as Hudi's writer does with `hoodie.metadata.enable=false`.
import type { TableConfig } from '../config/table-config.js';
import { LakeletError } from '../errors.js';
import { formatProperties, parseProperties } from '../config/properties.js';
import { parseKeyGeneratorType } from '../keygen/key-generator.js';
import { METADATA_TABLE_DIR, PROPERTIES_PATH } from '../layout.js';
import type { TableState } from './table-state.js';
import { metadataTableRefusals } from './metadata/metadata-drop.js';
import { CDC_LOGGING_MODE_PROPERTY, isKnownCdcLoggingMode } from '../config/cdc-config.js';

/** The mutating operations the guard knows: data writes and every table service. */
export type MaintenanceOperation = 'write' | 'compact' | 'clean' | 'archive' | 'savepoint' | 'deleteSavepoint' | 'restore' | 'rollback';

/** One reason lakelet cannot maintain a table: the property at fault, its value and why. */
export interface TableSupportProblem {
  /** The `hoodie.properties` key (or `.hoodie/metadata` for the metadata table's folder). */
  property: string;
  value: string;
  reason: string;
}

/** Table versions lakelet writes: 6 (timeline layout 1) and 8, 9 (layout 2). */
const WRITABLE_VERSIONS: ReadonlySet<number> = new Set([6, 8, 9]);

/** The MDT partitions lakelet keeps in step on v8/v9 tables (hudi-v9-write.md §4.4). */
export const MAINTAINED_METADATA_PARTITIONS: ReadonlySet<string> = new Set(['files', 'record_index', 'column_stats', 'partition_stats']);

/**
 * The operations that keep a v8/v9 table's metadata table in step: data writes (which also roll back failed
 * writes on both timelines), and the table services with their MDT side (services/metadata-sync.ts: clean and
 * compaction; rollback and restore roll back the MDT deltacommits; savepoint does not touch the MDT, as in Java;
 * archival is bounded by the MDT compaction).
 */
export const METADATA_MAINTAINED_OPERATIONS: Set<MaintenanceOperation> = new Set<MaintenanceOperation>(['write', 'compact', 'clean', 'archive', 'savepoint', 'deleteSavepoint', 'restore', 'rollback']);

/** Payload classes whose merge lakelet implements (by ordering value, or the latest write). */
const KNOWN_PAYLOADS = new Set([
  'org.apache.hudi.common.model.DefaultHoodieRecordPayload',
  'org.apache.hudi.common.model.OverwriteWithLatestAvroPayload',
]);

/** Merger strategy ids lakelet implements: event-time ordering (Hudi's default) and commit-time ordering. */
const KNOWN_MERGE_STRATEGIES = new Set(['eeb8d96f-b1e4-49fd-bbf8-28ac514178e5', 'ce9acb64-bde0-424c-9b91-f6ebba25356d']);

/** Everything in `config` (and the metadata folder's presence) that stops lakelet from maintaining the table. Pure. */
export function tableSupportProblems(config: TableConfig, hasMetadataFolder: boolean, operation: MaintenanceOperation): TableSupportProblem[] {
  const props = config.properties;
  const get = (k: string): string => (props.get(k) ?? '').trim();
  const out: TableSupportProblem[] = [];
  const add = (property: string, value: string, reason: string) => out.push({ property, value, reason });
  if (!WRITABLE_VERSIONS.has(config.version)) add('hoodie.table.version', String(config.version), 'lakelet writes table versions 6, 8 and 9 only');
  const layout = config.version >= 8 ? 2 : 1;
  if (config.timelineLayoutVersion !== layout) add('hoodie.timeline.layout.version', String(config.timelineLayoutVersion), `lakelet writes table version ${config.version} with timeline layout ${layout} only`);
  if (config.version >= 9) {
    const tableFormat = get('hoodie.table.format');
    if (tableFormat !== '' && tableFormat.toLowerCase() !== 'native') add('hoodie.table.format', tableFormat, 'lakelet writes Hudi\'s native table format only');
  }
  const mdt = get('hoodie.table.metadata.partitions');
  const listed = mdt.split(',').map((p) => p.trim()).filter(Boolean);
  if (mdt !== '') {
    if (config.version < 8) add('hoodie.table.metadata.partitions', mdt, 'the metadata table is enabled and lakelet does not maintain it on table version 6');
    else {
      // Partitions lakelet does not maintain are dropped by the next write (engine/metadata/metadata-drop.ts).
      const foreign = listed.filter((p) => !MAINTAINED_METADATA_PARTITIONS.has(p));
      if (foreign.length > 0 && operation !== 'write') add('hoodie.table.metadata.partitions', mdt, `lakelet does not maintain the metadata partition(s) ${foreign.join(', ')} (a write drops them)`);
      else if (!METADATA_MAINTAINED_OPERATIONS.has(operation)) add('hoodie.table.metadata.partitions', mdt, `lakelet does not yet keep the metadata table in step with ${operation}`);
      else if (!hasMetadataFolder) add(METADATA_TABLE_DIR, 'missing', 'the table lists metadata partitions but has no metadata table folder');
    }
  }
  const mdtInflight = get('hoodie.table.metadata.partitions.inflight');
  if (mdtInflight !== '') add('hoodie.table.metadata.partitions.inflight', mdtInflight, 'metadata table partitions are being built and lakelet does not maintain them');
  if (hasMetadataFolder && (listed.length === 0 || config.version < 8)) add(METADATA_TABLE_DIR, 'present', 'a metadata table exists and lakelet does not maintain it');
  const format = (get('hoodie.table.base.file.format') || 'PARQUET').toUpperCase();
  if (format !== 'PARQUET') add('hoodie.table.base.file.format', format, 'lakelet writes parquet base files only');
  const cdcMode = get(CDC_LOGGING_MODE_PROPERTY);
  if (cdcMode !== '' && !isKnownCdcLoggingMode(cdcMode)) add(CDC_LOGGING_MODE_PROPERTY, cdcMode, 'lakelet does not know this CDC supplemental logging mode');
  const bootstrap = get('hoodie.bootstrap.base.path');
  if (bootstrap !== '') add('hoodie.bootstrap.base.path', bootstrap, 'bootstrapped tables (skeleton files over external data) are not maintained by lakelet');
  const mode = get('hoodie.record.merge.mode').toUpperCase();
  if (mode !== '' && mode !== 'EVENT_TIME_ORDERING' && mode !== 'COMMIT_TIME_ORDERING') add('hoodie.record.merge.mode', mode, 'lakelet merges by event time or commit time only');
  const payload = get('hoodie.compaction.payload.class');
  if (payload !== '' && !KNOWN_PAYLOADS.has(payload)) add('hoodie.compaction.payload.class', payload, 'lakelet does not implement this payload\'s merge');
  const legacyPayload = get('hoodie.legacy.payload.class');
  if (legacyPayload !== '' && !KNOWN_PAYLOADS.has(legacyPayload)) add('hoodie.legacy.payload.class', legacyPayload, 'lakelet does not implement this payload\'s merge');
  for (const key of ['hoodie.compaction.record.merger.strategy', 'hoodie.record.merge.strategy.id']) {
    const id = get(key);
    if (id !== '' && !KNOWN_MERGE_STRATEGIES.has(id)) add(key, id, 'lakelet does not implement this record merger');
  }
  const partial = get('hoodie.table.partial.update.mode').toUpperCase();
  if (partial !== '' && partial !== 'NONE') add('hoodie.table.partial.update.mode', partial, 'lakelet does not implement partial updates');
  const mergeProps = get('hoodie.table.merge.properties');
  if (mergeProps !== '') add('hoodie.table.merge.properties', mergeProps, 'lakelet does not implement custom merge properties');
  if (operation === 'write' || operation === 'compact') {
    if (!config.populateMetaFields) add('hoodie.populate.meta.fields', 'false', 'tables without meta fields cannot be written or compacted by lakelet yet');
    if (operation === 'write') {
      try {
        parseKeyGeneratorType(config.keyGenerator, config.recordKeyFields, config.partitionFields);
      } catch {
        add(props.has('hoodie.table.keygenerator.type') ? 'hoodie.table.keygenerator.type' : 'hoodie.table.keygenerator.class', config.keyGenerator ?? '', 'lakelet does not implement this key generator');
      }
    }
  }
  return out;
}

/**
 * Refuse a mutating operation on a table lakelet cannot maintain, before anything is written: checks the config
 * of `state` (loaded afresh by the operation's start) and looks for a `.hoodie/metadata` folder (reads only),
 * then throws `UNSUPPORTED` naming the first property at fault (every problem is in `context.problems`). Reads
 * are never refused.
 */
export async function checkTableMaintainable(state: TableState, operation: MaintenanceOperation): Promise<void> {
  const { config, storage } = state;
  const hasMetadataFolder = (await storage.list(METADATA_TABLE_DIR)).length > 0;
  const problems = tableSupportProblems(config, hasMetadataFolder, operation);
  for (const [property, value, reason] of await metadataTableRefusals(storage, config)) problems.push({ property, value, reason });
  const first = problems[0];
  if (!first) return;
  const more = problems.length > 1 ? ` (and ${problems.slice(1).map((p) => p.property).join(', ')})` : '';
  throw new LakeletError(
    'UNSUPPORTED',
    `${operation}: table ${JSON.stringify(config.name)} cannot be maintained by lakelet: ${first.property}=${first.value} — ${first.reason}${more}; nothing was written (reads still work)`,
    { field: first.property, value: first.value, operation, problems },
  );
}

/** What {@link disableMetadataTable} did. */
export interface DisableMetadataTableResult {
  /** The metadata partitions `hoodie.properties` listed (now cleared). */
  clearedPartitions: string[];
  /** Files deleted under `.hoodie/metadata`. */
  filesDeleted: number;
}

/**
 * Disable the metadata table of a version-6 table, as Hudi's own writer does when `hoodie.metadata.enable=false`
 * (`HoodieTableMetadataUtil.deleteMetadataTable`): first clear `hoodie.table.metadata.partitions` (and
 * `….inflight`) in `hoodie.properties` — rewritten in one atomic write, the checksum kept — so no engine
 * trusts the metadata table any more, then delete every file under `.hoodie/metadata`. Readers fall back to
 * listing storage. Interrupted, it is safe to run again. Any other reason the table cannot be maintained
 * (version, CDC, …) → `UNSUPPORTED` before anything is written.
 *
 * Cost: engines lose what the metadata table accelerated — file listings come from storage (slower on object
 * stores with many partitions), and column stats, bloom filters and the record index are gone for data skipping
 * and index lookups; a Hudi writer with the metadata table enabled rebuilds it from a full listing on its next
 * commit (and lakelet then refuses to write again until it is disabled once more). `state` is the table loaded
 * afresh (under the table's write lock).
 */
export async function disableMetadataTable(state: TableState): Promise<DisableMetadataTableResult> {
  const { config, storage } = state;
  const others = tableSupportProblems(config, false, 'clean').filter((p) => !p.property.startsWith('hoodie.table.metadata.partitions'));
  const first = others[0];
  if (first) {
    throw new LakeletError('UNSUPPORTED', `disableMetadataTable: table ${JSON.stringify(config.name)} cannot be maintained by lakelet: ${first.property}=${first.value} — ${first.reason}; nothing was changed`, { field: first.property, value: first.value, problems: others });
  }
  const keys = ['hoodie.table.metadata.partitions', 'hoodie.table.metadata.partitions.inflight'];
  const cleared = (config.properties.get(keys[0] as string) ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  if (keys.some((k) => (config.properties.get(k) ?? '').trim() !== '')) {
    const text = new TextDecoder().decode(await storage.read(PROPERTIES_PATH));
    const props = parseProperties(text);
    for (const k of keys) if (props.has(k)) props.set(k, '');
    const comments = text.split(/\r?\n/).filter((line) => line.startsWith('#')).map((line) => line.slice(1));
    await storage.write(PROPERTIES_PATH, new TextEncoder().encode(formatProperties(props, comments)));
  }
  let filesDeleted = 0;
  for (const f of await storage.list(METADATA_TABLE_DIR, { recursive: true, includeTemporary: true })) {
    await storage.delete(f.path);
    filesDeleted++;
  }
  return { clearedPartitions: cleared, filesDeleted };
}
