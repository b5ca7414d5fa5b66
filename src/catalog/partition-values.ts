// Partition paths → Hive partition values, as the extractor Hudi's HoodieSyncConfig infers does it: none for a
// non-partitioned table (NonPartitionedExtractor), the text after `field=` for one hive-style field
// (HiveStylePartitionValueExtractor), one value per `/`-separated segment otherwise (MultiPartKeysValueExtractor).
// Values are URL-decoded when the table URL-encodes its partition paths (META_SYNC_DECODE_PARTITION's default).
import { LakeletError } from '../errors.js';
import type { HivePartition } from './hive-ddl.js';

/** Partition fields without a custom key generator's `:TYPE` suffix (`region:SIMPLE` → `region`). */
export function partitionFieldNames(fields: readonly string[]): string[] {
  return fields.map((f) => f.split(':')[0] as string);
}

/** Hudi's PartitionPathEncodeUtils.unescapePathName: `%XX` sequences decoded. */
export function unescapePathName(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** What the extraction needs of the table. */
export interface PartitionLayout {
  fields: readonly string[];
  hiveStyle: boolean;
  urlEncoded: boolean;
}

/**
 * The values of one partition path, one per field. A single field whose (non-hive-style) path has several
 * segments (a timestamp key generator's `yyyy/MM/dd`) keeps the whole path as its value; any other count
 * mismatch → `INVALID_ARGUMENT` naming the path and the fields, as Hudi's extractor check does.
 */
export function partitionValues(path: string, layout: PartitionLayout): string[] {
  const { fields } = layout;
  if (fields.length === 0) return [];
  const segments = path.split('/');
  let values: string[];
  if (fields.length === 1 && (segments.length !== 1 || !layout.hiveStyle)) {
    const s = segments.length === 1 ? (segments[0] as string) : path;
    values = [layout.hiveStyle && s.includes('=') ? s.slice(s.indexOf('=') + 1) : s];
  } else {
    values = segments.map((s) => (s.includes('=') ? s.slice(s.indexOf('=') + 1) : s));
  }
  if (values.length !== fields.length) {
    throw new LakeletError('INVALID_ARGUMENT', `hive sync: partition path ${JSON.stringify(path)} has ${values.length} values, the partition fields ${fields.join(', ')} need ${fields.length}`, { path, field: fields.join(',') });
  }
  return layout.urlEncoded ? values.map(unescapePathName) : values;
}

/** Partitions with their values, sorted by path. */
export function hivePartitions(paths: Iterable<string>, layout: PartitionLayout): HivePartition[] {
  return [...new Set(paths)].sort().map((path) => ({ path, values: partitionValues(path, layout) }));
}
