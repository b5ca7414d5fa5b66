// Dropping the metadata-table partitions lakelet does not maintain (hudi-v9-write.md §4.5: "maintain an index
// completely or remove it"), as Java does for an index disabled in its config: the partition leaves
// `hoodie.properties`' `hoodie.table.metadata.partitions` (backup written, the file rewritten with one atomic
// write — lakelet's stores never show it missing — backup deleted), then its folder under `.hoodie/metadata` is
// deleted, then its definition in index.json. Run before a write on a v8/v9 table; re-running finishes an
// interrupted drop (an unlisted folder or definition of an unmaintained partition is removed). Also the MDT
// facts a writer must refuse (a partitioned record index, an MDT of another table version).
import { formatProperties, parseProperties } from '../../config/properties.js';
import type { TableConfig } from '../../config/table-config.js';
import { isLakeletError } from '../../errors.js';
import { metadataTablePath, METADATA_TABLE_DIR, PROPERTIES_BACKUP_PATH, PROPERTIES_PATH } from '../../layout.js';
import { formatIndexDefinitions, parseIndexDefinitions } from '../../metadata/index-definitions.js';
import { parseMetadataPartitions } from '../../metadata/metadata-partitions.js';
import type { Storage } from '../../storage/storage.js';

/** What {@link dropUnmaintainedMetadataPartitions} did. */
export interface MetadataDropResult {
  /** Partitions taken out of `hoodie.table.metadata.partitions`. */
  dropped: string[];
  /** Files deleted under `.hoodie/metadata` (dropped partitions' folders). */
  filesDeleted: number;
  /** Whether hoodie.properties was rewritten (the caller reloads the config). */
  propertiesChanged: boolean;
}

async function readText(storage: Storage, path: string): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await storage.read(path));
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND')) return undefined;
    throw err;
  }
}

/**
 * Drop every MDT partition of the v8/v9 table `config` (in `storage`) that is not in `maintained` (see the file
 * header). Nothing happens on a table without an MDT or one listing only maintained partitions and leaving none
 * behind.
 */
export async function dropUnmaintainedMetadataPartitions(storage: Storage, config: TableConfig, maintained: ReadonlySet<string>): Promise<MetadataDropResult> {
  const result: MetadataDropResult = { dropped: [], filesDeleted: 0, propertiesChanged: false };
  if (config.version < 8) return result;
  const listed = parseMetadataPartitions(config.properties.get('hoodie.table.metadata.partitions'));
  result.dropped = listed.filter((p) => !maintained.has(p));
  if (result.dropped.length > 0) {
    const text = await readText(storage, PROPERTIES_PATH);
    if (text !== undefined) {
      const props = parseProperties(text);
      props.set('hoodie.table.metadata.partitions', listed.filter((p) => maintained.has(p)).sort().join(','));
      const now = new Date();
      await storage.write(PROPERTIES_BACKUP_PATH, new TextEncoder().encode(text));
      await storage.write(PROPERTIES_PATH, new TextEncoder().encode(formatProperties(props, [`Updated at ${now.toISOString()}`, now.toUTCString()])));
      await storage.delete(PROPERTIES_BACKUP_PATH);
      result.propertiesChanged = true;
    }
  }
  const keep = new Set(listed.filter((p) => maintained.has(p)));
  if (listed.length === 0) return result;
  // Folders of partitions no longer listed (this drop's, or an interrupted one's); the MDT's own `.hoodie` stays.
  for (const f of await storage.list(METADATA_TABLE_DIR, { recursive: true })) {
    const rel = f.path.slice(METADATA_TABLE_DIR.length + 1);
    const top = rel.split('/')[0] ?? '';
    if (top === '' || top.startsWith('.') || keep.has(top) || !rel.includes('/')) continue;
    await storage.delete(f.path);
    result.filesDeleted++;
  }
  const defsPath = config.properties.get('hoodie.table.index.defs.path');
  const defsText = defsPath ? await readText(storage, defsPath) : undefined;
  if (defsPath && defsText !== undefined) {
    const defs = parseIndexDefinitions(defsText, defsPath);
    const kept = [...defs].filter(([name]) => keep.has(name));
    if (kept.length !== defs.size) await storage.write(defsPath, new TextEncoder().encode(formatIndexDefinitions(kept)));
  }
  return result;
}

/** A reason lakelet cannot keep this table's MDT, from the MDT's own files: `[property, value, reason]`. */
export type MetadataRefusal = [property: string, value: string, reason: string];

/**
 * What stops a writer from keeping the MDT of `config` in step, from the files: an MDT whose table version is not
 * the data table's, and a partitioned record index (index.json `isPartitioned=true`).
 */
export async function metadataTableRefusals(storage: Storage, config: TableConfig): Promise<MetadataRefusal[]> {
  const listed = parseMetadataPartitions(config.properties.get('hoodie.table.metadata.partitions'));
  if (config.version < 8 || listed.length === 0) return [];
  const out: MetadataRefusal[] = [];
  const mdtText = await readText(storage, metadataTablePath(PROPERTIES_PATH));
  const mdtVersion = mdtText === undefined ? undefined : parseProperties(mdtText).get('hoodie.table.version');
  if (mdtVersion !== undefined && mdtVersion.trim() !== String(config.version)) out.push([`${METADATA_TABLE_DIR}/${PROPERTIES_PATH}`, mdtVersion, `the metadata table has table version ${mdtVersion}, the data table ${config.version}`]);
  const defsPath = config.properties.get('hoodie.table.index.defs.path');
  const defsText = defsPath ? await readText(storage, defsPath) : undefined;
  if (defsPath && defsText !== undefined && listed.includes('record_index')) {
    const ri = parseIndexDefinitions(defsText, defsPath).get('record_index');
    if ((ri?.indexOptions?.isPartitioned ?? 'false').toLowerCase() === 'true') out.push([defsPath, 'record_index isPartitioned=true', 'lakelet maintains a global (non-partitioned) record index only']);
  }
  return out;
}
