// The options of Hudi's TimestampBasedKeyGenerator (`hoodie.keygen.timebased.*`): their types, reading and writing
// them as table properties, and their validation. The formatter itself (timestamp-key-generator.ts) loads lazily.
import { LakeletError } from '../errors.js';

/** How the partition field's value is read (`hoodie.keygen.timebased.timestamp.type`). */
export type TimestampType = 'UNIX_TIMESTAMP' | 'DATE_STRING' | 'MIXED' | 'EPOCHMILLISECONDS' | 'EPOCHMICROSECONDS' | 'SCALAR';
/** Java `TimeUnit` names accepted by `hoodie.keygen.timebased.timestamp.scalar.time.unit`. */
export type ScalarTimeUnit = 'NANOSECONDS' | 'MICROSECONDS' | 'MILLISECONDS' | 'SECONDS' | 'MINUTES' | 'HOURS' | 'DAYS';

/** Options of the timestamp key generator, one per `hoodie.keygen.timebased.*` property. */
export interface TimestampKeyGenOptions {
  /** `timestamp.type`: epoch seconds (UNIX_TIMESTAMP), milliseconds, microseconds, a SCALAR in `scalarTimeUnit`, or a date string. */
  timestampType: TimestampType;
  /** `timestamp.scalar.time.unit` for SCALAR; default `SECONDS`. */
  scalarTimeUnit?: ScalarTimeUnit;
  /** `input.dateformat` for DATE_STRING/MIXED: one or more Joda patterns separated by `inputDateFormatListDelimiterRegex`. */
  inputDateFormat?: string;
  /** `input.dateformat.list.delimiter.regex`; default `,`. */
  inputDateFormatListDelimiterRegex?: string;
  /** `output.dateformat`: the Joda pattern of the partition path; default `yyyy-MM-dd` (Hudi has no default). */
  outputDateFormat?: string;
  /** `timezone`: input and output zone at once (overrides the two below when set). */
  timezone?: string;
  /** `input.timezone`: zone of date strings without an offset. Unset: the offset in the text, else UTC. */
  inputTimezone?: string;
  /** `output.timezone`: zone of the partition path. Unset: the input string's zone, UTC for numbers. */
  outputTimezone?: string;
}

/** The `hoodie.keygen.timebased.*` property prefix. */
export const TIMESTAMP_KEYGEN_PREFIX = 'hoodie.keygen.timebased.';
const TYPES: readonly TimestampType[] = ['UNIX_TIMESTAMP', 'DATE_STRING', 'MIXED', 'EPOCHMILLISECONDS', 'EPOCHMICROSECONDS', 'SCALAR'];
/** Each scalar time unit as milliseconds = value × mul / div. */
export const SCALAR_TIME_UNITS: Record<ScalarTimeUnit, { mul: bigint; div: bigint }> = {
  NANOSECONDS: { mul: 1n, div: 1_000_000n },
  MICROSECONDS: { mul: 1n, div: 1000n },
  MILLISECONDS: { mul: 1n, div: 1n },
  SECONDS: { mul: 1000n, div: 1n },
  MINUTES: { mul: 60_000n, div: 1n },
  HOURS: { mul: 3_600_000n, div: 1n },
  DAYS: { mul: 86_400_000n, div: 1n },
};

const PROPS: [keyof TimestampKeyGenOptions, string][] = [
  ['timestampType', 'timestamp.type'],
  ['scalarTimeUnit', 'timestamp.scalar.time.unit'],
  ['inputDateFormat', 'input.dateformat'],
  ['inputDateFormatListDelimiterRegex', 'input.dateformat.list.delimiter.regex'],
  ['outputDateFormat', 'output.dateformat'],
  ['timezone', 'timezone'],
  ['inputTimezone', 'input.timezone'],
  ['outputTimezone', 'output.timezone'],
];

/**
 * Read timestamp key generator options from table properties (`hoodie.keygen.timebased.*`, or the deprecated
 * `hoodie.deltastreamer.keygen.timebased.*`). Returns undefined when `timestamp.type` is absent; an unknown
 * type or time unit → `INVALID_ARGUMENT`.
 */
export function timestampOptionsFromProperties(properties: ReadonlyMap<string, string> | Readonly<Record<string, string>>): TimestampKeyGenOptions | undefined {
  const get = (suffix: string): string | undefined => {
    for (const prefix of [TIMESTAMP_KEYGEN_PREFIX, 'hoodie.deltastreamer.keygen.timebased.']) {
      const key = prefix + suffix;
      const v = properties instanceof Map ? properties.get(key) : (properties as Record<string, string>)[key];
      if (v !== undefined) return v;
    }
    return undefined;
  };
  const type = get('timestamp.type');
  if (type === undefined || type.trim() === '') return undefined;
  const out: Record<string, string> = {};
  for (const [option, suffix] of PROPS) {
    const v = get(suffix);
    if (v !== undefined && (v.trim() !== '' || option === 'inputDateFormatListDelimiterRegex')) out[option] = option === 'timestampType' || option === 'scalarTimeUnit' ? v.trim().toUpperCase() : v;
  }
  const options = out as unknown as TimestampKeyGenOptions;
  validateTimestampOptions(options);
  return options;
}

/** The `hoodie.keygen.timebased.*` properties that describe `options` (defaults written out explicitly). */
export function timestampOptionsToProperties(options: TimestampKeyGenOptions): Record<string, string> {
  validateTimestampOptions(options);
  const resolved: TimestampKeyGenOptions = { ...options, outputDateFormat: options.outputDateFormat ?? 'yyyy-MM-dd' };
  const out: Record<string, string> = {};
  for (const [option, suffix] of PROPS) {
    const v = resolved[option];
    if (v !== undefined) out[TIMESTAMP_KEYGEN_PREFIX + suffix] = v;
  }
  return out;
}

/** Refuse an unknown timestamp type or scalar time unit (`INVALID_ARGUMENT`). */
export function validateTimestampOptions(options: TimestampKeyGenOptions): void {
  if (!TYPES.includes(options.timestampType)) {
    throw new LakeletError('INVALID_ARGUMENT', `keygen: unknown timestamp type ${JSON.stringify(options.timestampType)} (expected one of ${TYPES.join(', ')})`, { field: 'timestamp.type', value: options.timestampType });
  }
  if (options.scalarTimeUnit !== undefined && !(options.scalarTimeUnit in SCALAR_TIME_UNITS)) {
    throw new LakeletError('INVALID_ARGUMENT', `keygen: unknown scalar time unit ${JSON.stringify(options.scalarTimeUnit)}`, { field: 'timestamp.scalar.time.unit', value: options.scalarTimeUnit });
  }
}
