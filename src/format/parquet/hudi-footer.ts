// The footer keys Hudi writes into a base file (Avro schema, record-key bloom filter and its type, min/max record
// key) and the one reader of them, with Hudi's fallback to the legacy bloom key of files written as com.uber.hoodie.
import { BLOOM_FILTER_FOOTER_KEY, BLOOM_FILTER_TYPE_FOOTER_KEY, LEGACY_BLOOM_FILTER_FOOTER_KEY, type HudiBloomFilter } from '../bloom-filter.js';
import { parseBloomFilter } from '../bloom-filter-parse.js';

export { BLOOM_FILTER_FOOTER_KEY, BLOOM_FILTER_TYPE_FOOTER_KEY, LEGACY_BLOOM_FILTER_FOOTER_KEY };
/** Footer key of the Avro schema (parquet-avro's). */
export const AVRO_SCHEMA_FOOTER_KEY = 'parquet.avro.schema';
/** Footer key of the smallest record key (Java `String.compareTo` order). */
export const MIN_RECORD_KEY_FOOTER_KEY = 'hoodie_min_record_key';
/** Footer key of the largest record key (Java `String.compareTo` order). */
export const MAX_RECORD_KEY_FOOTER_KEY = 'hoodie_max_record_key';

/** What a base file's footer says for Hudi. Absent keys are undefined. */
export interface HudiFooter {
  /** The Avro schema as JSON text (`parquet.avro.schema`). */
  avroSchema: string | undefined;
  /** `hoodie_min_record_key` / `hoodie_max_record_key`. */
  minKey: string | undefined;
  maxKey: string | undefined;
  /** The parsed record-key bloom filter (only when asked for, see {@link ReadHudiFooterOptions.bloom}). */
  bloom: HudiBloomFilter | undefined;
}

/** Options of {@link readHudiFooter}. */
export interface ReadHudiFooterOptions {
  /** The file, for error context. */
  path?: string;
  /** Parse the bloom filter (default true; a filter is large, skip it when only the schema is wanted). */
  bloom?: boolean;
}

/**
 * Read Hudi's keys from a parquet footer's key/value metadata. The bloom filter is read as Hudi reads it
 * (`BaseFileUtils.readBloomFilterFromMetadata`): `org.apache.hudi.bloomfilter`, else the legacy
 * `com.uber.hoodie.bloomfilter`; its type is `hoodie_bloom_filter_type_code`, SIMPLE when absent. A malformed
 * filter throws `CORRUPT_FILE` naming `path`.
 */
export function readHudiFooter(keyValues: Readonly<Record<string, string>>, options: ReadHudiFooterOptions = {}): HudiFooter {
  let bloom: HudiBloomFilter | undefined;
  if (options.bloom !== false) {
    const text = keyValues[BLOOM_FILTER_FOOTER_KEY] ?? keyValues[LEGACY_BLOOM_FILTER_FOOTER_KEY];
    if (text) bloom = parseBloomFilter(text, keyValues[BLOOM_FILTER_TYPE_FOOTER_KEY], options.path === undefined ? {} : { path: options.path });
  }
  return {
    avroSchema: keyValues[AVRO_SCHEMA_FOOTER_KEY],
    minKey: keyValues[MIN_RECORD_KEY_FOOTER_KEY],
    maxKey: keyValues[MAX_RECORD_KEY_FOOTER_KEY],
    bloom,
  };
}
