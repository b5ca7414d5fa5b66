// Test tables of Hudi 0.10–0.13 (table versions 3, 4, 5) made from a table of version 6 (a fixture copy, or a table
// lakelet wrote) by the differences docs/hudi-format-v3-v5.md lists: hoodie.properties as those releases wrote it,
// AVRO_DATA log blocks of content version 2, write-stat fields of later releases dropped, archived entries in the
// older `HoodieArchivedMetaEntry` schema, `default` as the default partition path before version 5, compaction
// plans also kept in `.hoodie/.aux`, and DELETE blocks of content version 2 (Kryo `DeleteRecord[]`, encoded by
// test/helpers/kryo-encode.ts). No real table of these versions
// is in ../shared, so this is the closest to what Spark wrote that the docs let us derive.
import { formatProperties, parseProperties } from '../../src/config/properties.js';
import { encodeLogBlock, scanLogBlocks } from '../../src/format/log/block.js';
import { decodeAvroDataBlock, encodeAvroDataBlockContent } from '../../src/format/log/content.js';
import { decodeDeleteBlock, type DeleteRecord } from '../../src/format/log/delete-block.js';
import { bufferFromBytes, readParquetFooter, readParquetRows } from '../../src/format/parquet/read.js';
import { writeBaseFile } from '../../src/format/parquet/write.js';
import { parseRecordSchema } from '../../src/schema/table-schema.js';
import type { Storage } from '../../src/index.js';
import { kryoDeleteBlockContent, type KryoOrderingValue } from './kryo-encode.js';

/** The table versions this helper makes. */
export type OldTableVersion = 3 | 4 | 5;

/** Options of {@link makeOldVersionTable}. */
export interface OldVersionOptions {
  /** `hoodie.timeline.layout.version` to write: `'1'` (default, what 0.10+ writes), `'0'` or `null` (key removed). */
  layoutVersion?: '0' | '1' | null;
  /** Copy every `<t>.compaction.requested` plan into `.hoodie/.aux/` as 0.10–0.13 did (default true). */
  auxCompactionPlans?: boolean;
  /** The Java ordering value each rewritten delete holds (default: the version-3 value's, {@link kryoOrderingValueOf}). */
  kryoOrderingVal?: (rec: DeleteRecord) => KryoOrderingValue | null;
}

const PROPERTIES = '.hoodie/hoodie.properties';
const AUX = '.hoodie/.aux';
const HIVE_DEFAULT = '__HIVE_DEFAULT_PARTITION__';
const DEPRECATED_DEFAULT = 'default';

/**
 * Keys the Hudi release of each version did not write yet (docs/hudi-format-v3-v5.md §2): removed from
 * `hoodie.properties` for that version and older.
 */
const KEYS_ADDED_AFTER: Record<OldTableVersion, readonly string[]> = {
  5: [],
  // 0.12/0.13 (v5): CDC and the merger strategy.
  4: ['hoodie.table.cdc.enabled', 'hoodie.table.cdc.supplemental.logging.mode', 'hoodie.compaction.record.merger.strategy'],
  // 0.11 (v4, ThreeToFourUpgradeHandler): checksum, database name, metadata partitions; drop.partition.columns.
  3: ['hoodie.table.checksum', 'hoodie.database.name', 'hoodie.table.metadata.partitions', 'hoodie.datasource.write.drop.partition.columns'],
};

/** Write-stat fields of later releases, dropped from JSON commit metadata of older versions. */
const STAT_FIELDS_ADDED_AFTER: Record<OldTableVersion, readonly string[]> = {
  5: [],
  4: ['cdcStats'], // CDC, 0.13
  3: ['recordsStats'], // column stats of the metadata table, 0.11
};

const keysToDrop = (version: OldTableVersion, table: Record<OldTableVersion, readonly string[]>): string[] =>
  ([5, 4, 3] as const).filter((v) => v >= version).flatMap((v) => [...table[v]]);

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const bytes = (s: string) => new TextEncoder().encode(s);
const isLogFile = (name: string) => /^\..+\.log\.\d+/.test(name);
const baseNameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Rewrite `hoodie.properties` as a table of `version` (comments as Java writes them). */
async function rewriteProperties(storage: Storage, version: OldTableVersion, layout: '0' | '1' | null): Promise<void> {
  const props = parseProperties(text(await storage.read(PROPERTIES)));
  props.set('hoodie.table.version', String(version));
  for (const k of keysToDrop(version, KEYS_ADDED_AFTER)) props.delete(k);
  if (layout === null) props.delete('hoodie.timeline.layout.version');
  else props.set('hoodie.timeline.layout.version', layout);
  await storage.write(PROPERTIES, bytes(formatProperties(props, ['Updated at 2022-06-01T10:00:00.000Z', 'Wed Jun 01 10:00:00 UTC 2022'])));
}

/**
 * The Java object Hudi 0.10–0.13 held as a delete's ordering value, for a version-3 record's value: Integer, Long,
 * Boolean, Float, Double, String, LocalDate, BigDecimal, Timestamp (whole milliseconds). Others throw.
 */
export function kryoOrderingValueOf(rec: DeleteRecord): KryoOrderingValue | null {
  const v = rec.orderingVal;
  switch (rec.orderingValType) {
    case 'null':
      return null;
    case 'int':
      return { type: 'Integer', value: v as number };
    case 'long':
      return { type: 'Long', value: BigInt(v as bigint | number) };
    case 'boolean':
      return { type: 'Boolean', value: v as boolean };
    case 'float':
      return { type: 'Float', value: v as number };
    case 'double':
      return { type: 'Double', value: v as number };
    case 'string':
      return { type: 'String', value: v as string };
    case 'date': {
      const d = v as Date;
      return { type: 'LocalDate', year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
    }
    case 'decimal': {
      const [whole, frac = ''] = (v as string).split('.');
      return { type: 'BigDecimal', unscaled: BigInt(`${whole}${frac}`), scale: frac.length };
    }
    case 'timestamp-micros':
      return { type: 'Timestamp', millis: BigInt((v as Date).getTime()) };
    default:
      throw new Error(`old-version-table: no Kryo form for a ${rec.orderingValType} ordering value`);
  }
}

/** Options of the log-block rewrite. */
interface LogDowngradeOptions {
  /** The Kryo ordering value each delete is written with (default {@link kryoOrderingValueOf}). */
  kryoOrderingVal?: (rec: DeleteRecord) => KryoOrderingValue | null;
}

/**
 * AVRO_DATA blocks of content version 3 (Hudi 0.14) become version 2 (0.10–0.13; same layout: record count, then
 * length-prefixed records). DELETE blocks of version 3 (Avro) are re-encoded as 0.10–0.13 wrote them: version 2,
 * the `DeleteRecord[]` Kryo graph (same keys, partition paths and ordering values); every other byte of the file
 * stays as it was.
 */
async function downgradeLogBlocks(storage: Storage, path: string, options: LogDowngradeOptions): Promise<void> {
  const data = new Uint8Array(await storage.read(path));
  let changed = false;
  const parts: Uint8Array[] = [];
  let cursor = 0;
  for (const block of scanLogBlocks(data, path).blocks) {
    const view = new DataView(data.buffer, data.byteOffset + block.contentOffset, 4);
    if (block.type === 'AVRO_DATA' && view.getInt32(0) === 3) {
      view.setInt32(0, 2);
      changed = true;
    }
    if (block.type !== 'DELETE' || view.getInt32(0) !== 3) continue;
    const records = decodeDeleteBlock(block, path).map((rec) => ({
      recordKey: rec.recordKey,
      partitionPath: rec.partitionPath,
      orderingVal: (options.kryoOrderingVal ?? kryoOrderingValueOf)(rec),
    }));
    parts.push(data.subarray(cursor, block.offset));
    parts.push(encodeLogBlock('DELETE', block.header, kryoDeleteBlockContent(records), block.footer));
    cursor = block.offset + block.length;
    changed = true;
  }
  if (!changed) return;
  parts.push(data.subarray(cursor));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  await storage.write(path, out);
}

/** The archived-timeline entry field Hudi 0.14 added to `HoodieArchivedMetaEntry` (absent in the 0.10–0.13 schema). */
const ARCHIVE_FIELD_ADDED_IN_V6 = 'HoodieInflightReplaceMetadata';

/** Re-encode an archive file's entries with the 0.10–0.13 `HoodieArchivedMetaEntry` schema (one block per block). */
async function downgradeArchiveFile(storage: Storage, path: string): Promise<void> {
  const data = await storage.read(path);
  const out: Uint8Array[] = [];
  for (const block of scanLogBlocks(data, path).blocks) {
    if (block.type !== 'AVRO_DATA') throw new Error(`old-version-table: ${path} has a ${block.type} block`);
    const schema = JSON.parse(block.header.SCHEMA ?? '{}') as { fields: { name: string }[] };
    schema.fields = schema.fields.filter((f) => f.name !== ARCHIVE_FIELD_ADDED_IN_V6);
    const records = decodeAvroDataBlock(block, path).records.map((r) => {
      const { [ARCHIVE_FIELD_ADDED_IN_V6]: _dropped, ...rest } = r;
      return rest;
    });
    const content = encodeAvroDataBlockContent(schema, records);
    new DataView(content.buffer, content.byteOffset, 4).setInt32(0, 2); // content version of 0.10–0.13
    out.push(encodeLogBlock('AVRO_DATA', { ...block.header, SCHEMA: JSON.stringify(schema) }, content));
  }
  const joined = new Uint8Array(out.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of out) {
    joined.set(b, at);
    at += b.length;
  }
  await storage.write(path, joined);
}

/** Drop later write-stat fields from a JSON instant file; true when it was JSON. */
async function downgradeCommitJson(storage: Storage, path: string, version: OldTableVersion): Promise<void> {
  const raw = await storage.read(path);
  if (raw.length === 0 || raw[0] !== 0x7b) return; // empty or Avro
  const md = JSON.parse(text(raw)) as { partitionToWriteStats?: Record<string, Record<string, unknown>[]> };
  const drop = keysToDrop(version, STAT_FIELDS_ADDED_AFTER);
  for (const stats of Object.values(md.partitionToWriteStats ?? {})) for (const s of stats) for (const k of drop) delete s[k];
  await storage.write(path, bytes(JSON.stringify(md, null, 2)));
}

/** A partition path with every `__HIVE_DEFAULT_PARTITION__` segment value spelled `default`. */
function legacyPartition(partitionPath: string): string {
  return partitionPath.split('/').map((seg) => {
    const eq = seg.indexOf('=');
    const value = eq < 0 ? seg : seg.slice(eq + 1);
    return value === HIVE_DEFAULT ? `${eq < 0 ? '' : seg.slice(0, eq + 1)}${DEPRECATED_DEFAULT}` : seg;
  }).join('/');
}

/**
 * Move partitions named with `__HIVE_DEFAULT_PARTITION__` to `default` (0.10/0.11's name for null and ''): files,
 * the `_hoodie_partition_path` column of base files (re-encoded), and partition keys and paths in JSON commit
 * metadata. Log files and Avro instant files naming such a partition are not handled: the helper throws.
 */
async function renameDefaultPartitions(storage: Storage): Promise<void> {
  const files = await storage.list('', { recursive: true });
  for (const f of files) {
    if (!f.path.startsWith('.hoodie/')) continue;
    const data = await storage.read(f.path);
    if (!text(data).includes(HIVE_DEFAULT)) continue;
    if (data[0] !== 0x7b) throw new Error(`old-version-table: ${f.path} names a default partition and is not JSON`);
    await storage.write(f.path, bytes(text(data).split(HIVE_DEFAULT).join(DEPRECATED_DEFAULT)));
  }
  for (const f of files) {
    if (f.path.startsWith('.hoodie/')) continue;
    const dir = f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '';
    const target = legacyPartition(dir);
    if (target === dir) continue;
    const name = baseNameOf(f.path);
    if (isLogFile(name)) throw new Error(`old-version-table: log file ${f.path} in a default partition is not handled`);
    let data = await storage.read(f.path);
    if (name.endsWith('.parquet')) {
      const buffer = bufferFromBytes(data);
      const footer = await readParquetFooter(buffer, f.path);
      const schemaText = footer.keyValues['parquet.avro.schema'];
      if (schemaText === undefined) throw new Error(`old-version-table: ${f.path} has no parquet.avro.schema`);
      const rows = await readParquetRows(buffer, footer, f.path);
      for (const r of rows) r._hoodie_partition_path = target;
      data = writeBaseFile(rows, { schema: parseRecordSchema(schemaText, f.path), bloomFilter: { numEntries: 100 } });
    }
    await storage.write(`${target}/${name}`, data);
    await storage.delete(f.path);
  }
}

/**
 * Rewrite the version-6 table in `storage` (timeline layout 1) the way Hudi 0.12 (5), 0.11 (4) or 0.10 (3) wrote it.
 * Throws on anything the documented differences do not cover (logs in a default partition, ordering values
 * without a Kryo form).
 */
export async function makeOldVersionTable(storage: Storage, version: OldTableVersion, options: OldVersionOptions = {}): Promise<void> {
  const props = parseProperties(text(await storage.read(PROPERTIES)));
  if (props.get('hoodie.table.version') !== '6') throw new Error(`old-version-table: expected a version 6 table, got ${props.get('hoodie.table.version')}`);
  const files = await storage.list('', { recursive: true });
  for (const f of files) {
    const name = baseNameOf(f.path);
    if (!f.path.startsWith('.hoodie/') && isLogFile(name)) await downgradeLogBlocks(storage, f.path, options);
    if (f.path.startsWith('.hoodie/') && !f.path.slice('.hoodie/'.length).includes('/') && /^\d+\.(commit|deltacommit|replacecommit|inflight|deltacommit\.inflight|replacecommit\.inflight)$/.test(name)) {
      await downgradeCommitJson(storage, f.path, version);
    }
    if (/^\.hoodie\/archived\/\.commits_\.archive\.\d+/.test(f.path)) await downgradeArchiveFile(storage, f.path);
    if ((options.auxCompactionPlans ?? true) && /^\.hoodie\/\d+\.compaction\.requested$/.test(f.path)) {
      await storage.write(`${AUX}/${name}`, await storage.read(f.path));
    }
  }
  if (version < 5) await renameDefaultPartitions(storage);
  await rewriteProperties(storage, version, options.layoutVersion === undefined ? '1' : options.layoutVersion);
}
