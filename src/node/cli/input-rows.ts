// What the CLI's input readers share: the rows they return, the `input:` error, the `_hoodie_*` meta-field
// filter, and the Avro field type values are typed by.
import { LakeletError, META_FIELDS, type AvroRecordSchema } from '../index.js';

/** The Avro type of one field of a record schema. */
export type AvroSchema = AvroRecordSchema['fields'][number]['type'];
const META: ReadonlySet<string> = new Set(META_FIELDS);
/** Whether `name` is a `_hoodie_*` meta column (dropped from every input). */
export const isMetaField = (name: string): boolean => META.has(name);

/** Rows read from an input file. */
export interface InputRows {
  rows: Record<string, unknown>[];
  /** The 1-based line each row starts on (text formats only), for error messages. */
  lines?: number[];
  /** Parquet: the file's Avro schema (`parquet.avro.schema` footer key, JSON), when it has one. */
  avroSchema?: string;
}

/** An `INVALID_ARGUMENT` error "input: message". */
export function invalid(message: string, context: Record<string, unknown> = {}): LakeletError {
  return new LakeletError('INVALID_ARGUMENT', `input: ${message}`, context);
}
