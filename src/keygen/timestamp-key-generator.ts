// Hudi's TimestampBasedKeyGenerator partition value: a timestamp field (epoch number, Date or date string) turned
// into a formatted date path such as `2024/01/15/10`, configured by the `hoodie.keygen.timebased.*` properties.
import { LakeletError } from '../errors.js';
import { compileDatePattern, type DatePattern } from './date-time-format.js';
import { UTC_ZONE, fixedOffsetZone, parseTimeZone, type TimeZone } from './time-zone.js';
import { SCALAR_TIME_UNITS, validateTimestampOptions, type ScalarTimeUnit, type TimestampKeyGenOptions } from './timestamp-options.js';

const MAX_MS = 8.64e15;

/** Turns one partition-field value into the formatted (not yet escaped) partition path. */
export type TimestampPartitionFormatter = (value: unknown) => string;

/**
 * Compile Hudi's TimestampBasedKeyGenerator partition formatting (`TimestampBasedAvroKeyGenerator.getPartitionPath`):
 * - numbers/bigints are epoch values in the type's unit (doubles truncated toward zero, as Java's `longValue`);
 *   with DATE_STRING/MIXED they are an error, as in Hudi;
 * - strings are parsed with the input format(s) (first that matches the whole text); with other types → error;
 * - `Date` values are taken as the instant they denote, whatever the type (lakelet's value model already
 *   turned timestamp/date columns into instants; Hudi would re-scale the raw epoch number);
 * - null/undefined become Hudi's default: epoch value 1 (DATE_STRING: 1 ms formatted with the first input format).
 * Output zone: `outputTimezone`/`timezone`; else a parsed string keeps its own zone; numbers and Dates use UTC
 * (Hudi uses the JVM default zone there). Errors → `INVALID_ARGUMENT` with `value`.
 */
export function createTimestampPartitionFormatter(options: TimestampKeyGenOptions): TimestampPartitionFormatter {
  validateTimestampOptions(options);
  const type = options.timestampType;
  const isString = type === 'DATE_STRING' || type === 'MIXED';
  const unitName: ScalarTimeUnit | undefined =
    type === 'UNIX_TIMESTAMP' ? 'SECONDS' : type === 'EPOCHMILLISECONDS' ? 'MILLISECONDS' : type === 'EPOCHMICROSECONDS' ? 'MICROSECONDS' : type === 'SCALAR' ? options.scalarTimeUnit ?? 'SECONDS' : undefined;
  const unit = unitName === undefined ? undefined : SCALAR_TIME_UNITS[unitName];
  const blank = (s: string | undefined): string | undefined => (s === undefined || s.trim() === '' ? undefined : s);
  const zoneId = blank(options.timezone);
  const inputZone: TimeZone | undefined = zoneId !== undefined ? parseTimeZone(zoneId) : blank(options.inputTimezone) !== undefined ? parseTimeZone(options.inputTimezone as string) : undefined;
  const outputZone: TimeZone | undefined = zoneId !== undefined ? parseTimeZone(zoneId) : blank(options.outputTimezone) !== undefined ? parseTimeZone(options.outputTimezone as string) : undefined;
  const output = compileDatePattern(options.outputDateFormat ?? 'yyyy-MM-dd');
  if (output.pattern === '') throw new LakeletError('INVALID_ARGUMENT', 'keygen: output date format is empty', { field: 'output.dateformat', value: '' });
  let inputs: DatePattern[] = [];
  if (isString) {
    const list = blank(options.inputDateFormat);
    if (list === undefined) throw new LakeletError('INVALID_ARGUMENT', `keygen: timestamp type ${type} needs an input date format (hoodie.keygen.timebased.input.dateformat)`, { field: 'input.dateformat' });
    let delimiter: RegExp;
    try {
      delimiter = new RegExp(options.inputDateFormatListDelimiterRegex ?? ',');
    } catch (err) {
      throw new LakeletError('INVALID_ARGUMENT', `keygen: invalid input date format delimiter ${JSON.stringify(options.inputDateFormatListDelimiterRegex)}`, { field: 'input.dateformat.list.delimiter.regex', value: options.inputDateFormatListDelimiterRegex }, { cause: err });
    }
    inputs = list.split(delimiter).map((s) => s.trim()).filter((s) => s !== '').map(compileDatePattern);
  }

  const bad = (message: string, value: unknown): LakeletError =>
    new LakeletError('INVALID_ARGUMENT', `keygen: ${message}`, { value });

  const fromEpoch = (n: bigint, value: unknown): number => {
    if (unit === undefined) throw bad(`timestamp type ${type} expects a date string, got the number ${String(value)}`, value);
    const ms = (n * unit.mul) / unit.div;
    if (ms > BigInt(MAX_MS) || ms < -BigInt(MAX_MS)) throw bad(`timestamp ${String(value)} is out of range`, value);
    return Number(ms);
  };

  const parseString = (text: string): { utcMs: number; zone: TimeZone } => {
    if (!isString) throw bad(`timestamp type ${type} expects a number, got the string ${JSON.stringify(text)} (use DATE_STRING with an input date format)`, text);
    for (const p of inputs) {
      const parsed = p.parse(text, inputZone ?? UTC_ZONE);
      if (parsed === undefined) continue;
      const zone = inputZone ?? parsed.zone ?? (parsed.offsetMs !== undefined ? fixedOffsetZone(parsed.offsetMs) : UTC_ZONE);
      return { utcMs: parsed.utcMs, zone };
    }
    throw bad(`${JSON.stringify(text)} does not match the input date format ${JSON.stringify(options.inputDateFormat)}`, text);
  };

  return (value: unknown): string => {
    let utcMs: number;
    let zone: TimeZone = UTC_ZONE;
    let v = value;
    if (v === null || v === undefined) {
      // Hudi's getDefaultPartitionVal: epoch value 1, or 1 ms formatted with the first input format.
      v = isString ? (inputs[0] as DatePattern).format(1, inputZone ?? outputZone ?? UTC_ZONE) : 1n;
    }
    if (typeof v === 'bigint') {
      utcMs = fromEpoch(v, v);
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw bad(`timestamp ${String(v)} is not a finite number`, v);
      utcMs = fromEpoch(BigInt(Math.trunc(v)), v);
    } else if (v instanceof Date) {
      utcMs = v.getTime();
      if (Number.isNaN(utcMs)) throw bad('invalid Date', v);
    } else if (typeof v === 'string') {
      ({ utcMs, zone } = parseString(v));
    } else {
      throw bad(`a timestamp partition value must be a number, bigint, Date or string, got ${typeof v}`, v);
    }
    return output.format(utcMs, outputZone ?? zone);
  };
}
