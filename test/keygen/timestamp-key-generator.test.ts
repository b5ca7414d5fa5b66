// Timestamp key generator: timestamp types and units, Joda-style input/output patterns, several input formats,
// time zones (fixed offsets, parsed offsets, IANA), Hudi's null default, errors and property round-trips.
import { describe, expect, test } from 'vitest';
import { LakeletError } from '../../src/errors.js';
import { compileDatePattern } from '../../src/keygen/date-time-format.js';
import { parseTimeZone, UTC_ZONE } from '../../src/keygen/time-zone.js';
import { createKeyGenerator as createWithoutLoader, loadKeyGenerator, type KeyGeneratorOptions } from '../../src/keygen/key-generator.js';
import { createTimestampPartitionFormatter as fmt } from '../../src/keygen/timestamp-key-generator.js';
import { timestampOptionsFromProperties, timestampOptionsToProperties, type TimestampKeyGenOptions } from '../../src/keygen/timestamp-options.js';
import { thrown } from '../helpers/expect-error.js';

/** The key generator with the timestamp formatter passed in (what loadKeyGenerator does after its import). */
const createKeyGenerator = (options: KeyGeneratorOptions) => createWithoutLoader(options, fmt);

const T = Date.UTC(2024, 0, 15, 10, 30, 45, 123); // 2024-01-15T10:30:45.123Z

describe('date patterns', () => {
  test('format the supported letters', () => {
    const p = compileDatePattern("yyyy-MM-dd'T'HH:mm:ss.SSS Z ZZ XXX a hh EEE EEEE MMM MMMM DDD yy");
    expect(p.format(T, UTC_ZONE)).toBe('2024-01-15T10:30:45.123 +0000 +00:00 Z AM 10 Mon Monday Jan January 015 24');
    expect(compileDatePattern('yyyy/MM/dd/HH').format(T, parseTimeZone('+05:30'))).toBe('2024/01/15/16');
    expect(compileDatePattern('Z|ZZ|X|XX|XXX').format(T, parseTimeZone('-08:00'))).toBe('-0800|-08:00|-08|-0800|-08:00');
    expect(compileDatePattern("'it''s' yyyy").format(T, UTC_ZONE)).toBe("it's 2024");
  });

  test('parse with offsets, without offsets and with adjacent numeric fields', () => {
    const p = compileDatePattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
    expect(p.parse('2024-01-15T10:30:45.123Z', UTC_ZONE)).toEqual({ utcMs: T, offsetMs: 0, zone: undefined });
    expect(p.parse('2024-01-15T16:00:45.123+05:30', UTC_ZONE)?.utcMs).toBe(T);
    expect(p.parse('2024-01-15T16:00:45.123+0530', UTC_ZONE)?.offsetMs).toBe(19_800_000);
    expect(p.parse('2024-01-15T10:30:45.123', UTC_ZONE)).toBeUndefined();
    expect(p.parse('2024-01-15T10:30:45.123Zjunk', UTC_ZONE)).toBeUndefined();
    expect(p.parse('2024-02-30T10:30:45.123Z', UTC_ZONE)).toBeUndefined();
    const compact = compileDatePattern('yyyyMMddHH');
    expect(compact.parse('2024011510', UTC_ZONE)?.utcMs).toBe(Date.UTC(2024, 0, 15, 10));
    const loose = compileDatePattern('yyyy-M-d');
    expect(loose.parse('2024-1-5', UTC_ZONE)?.utcMs).toBe(Date.UTC(2024, 0, 5));
    expect(compileDatePattern('dd MMM yyyy').parse('05 feb 2024', UTC_ZONE)?.utcMs).toBe(Date.UTC(2024, 1, 5));
    expect(compileDatePattern('yyyy-MM-dd hh:mm a').parse('2024-01-15 12:05 AM', UTC_ZONE)?.utcMs).toBe(Date.UTC(2024, 0, 15, 0, 5));
    expect(compileDatePattern('yyyy-MM-dd HH:mm').parse('2024-01-15 10:00', parseTimeZone('-03:00'))?.utcMs).toBe(Date.UTC(2024, 0, 15, 13));
  });

  test('unsupported letters and bad quotes are refused', () => {
    expect(thrown(() => compileDatePattern('yyyy-ww')).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => compileDatePattern("yyyy'T")).code).toBe('INVALID_ARGUMENT');
  });

  test('time zones: fixed, UTC aliases, IANA; unknown ids fail', () => {
    expect(parseTimeZone('GMT+05:30').offsetAt(0)).toBe(19_800_000);
    expect(parseTimeZone('UTC-3').offsetAt(0)).toBe(-10_800_000);
    expect(parseTimeZone('-0800').offsetAt(0)).toBe(-28_800_000);
    expect(parseTimeZone('GMT').offsetAt(T)).toBe(0);
    const la = parseTimeZone('America/Los_Angeles');
    expect(la.offsetAt(Date.UTC(2024, 0, 15))).toBe(-8 * 3_600_000);
    expect(la.offsetAt(Date.UTC(2024, 6, 15))).toBe(-7 * 3_600_000);
    expect(la.localToUtc(Date.UTC(2024, 6, 15, 12))).toBe(Date.UTC(2024, 6, 15, 19));
    expect(parseTimeZone('Asia/Kolkata').offsetAt(T)).toBe(19_800_000);
    expect(thrown(() => parseTimeZone('Mars/Olympus')).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => parseTimeZone('+25:00')).code).toBe('INVALID_ARGUMENT');
  });
});

describe('timestamp types', () => {
  test('EPOCHMILLISECONDS, UNIX_TIMESTAMP, EPOCHMICROSECONDS', () => {
    expect(fmt({ timestampType: 'EPOCHMILLISECONDS', outputDateFormat: 'yyyy/MM/dd/HH' })(T)).toBe('2024/01/15/10');
    expect(fmt({ timestampType: 'EPOCHMILLISECONDS', outputDateFormat: 'yyyy/MM/dd/HH' })(BigInt(T))).toBe('2024/01/15/10');
    expect(fmt({ timestampType: 'UNIX_TIMESTAMP', outputDateFormat: 'yyyy-MM-dd HH:mm:ss' })(Math.floor(T / 1000))).toBe('2024-01-15 10:30:45');
    expect(fmt({ timestampType: 'UNIX_TIMESTAMP', outputDateFormat: 'yyyy-MM-dd HH:mm:ss' })(T / 1000)).toBe('2024-01-15 10:30:45');
    expect(fmt({ timestampType: 'EPOCHMICROSECONDS', outputDateFormat: 'yyyy-MM-dd HH:mm:ss.SSS' })(BigInt(T) * 1000n + 999n)).toBe('2024-01-15 10:30:45.123');
  });

  test('SCALAR uses the scalar time unit (default SECONDS)', () => {
    expect(fmt({ timestampType: 'SCALAR', outputDateFormat: 'yyyy-MM-dd' })(86_400)).toBe('1970-01-02');
    expect(fmt({ timestampType: 'SCALAR', scalarTimeUnit: 'DAYS', outputDateFormat: 'yyyy-MM-dd' })(19_737)).toBe('2024-01-15');
    expect(fmt({ timestampType: 'SCALAR', scalarTimeUnit: 'HOURS', outputDateFormat: 'yyyy-MM-dd HH' })(1)).toBe('1970-01-01 01');
    expect(fmt({ timestampType: 'SCALAR', scalarTimeUnit: 'NANOSECONDS', outputDateFormat: 'yyyy-MM-dd HH:mm:ss.SSS' })(BigInt(T) * 1_000_000n)).toBe('2024-01-15 10:30:45.123');
  });

  test('Date values are instants whatever the type', () => {
    expect(fmt({ timestampType: 'EPOCHMICROSECONDS', outputDateFormat: 'yyyy/MM/dd' })(new Date(T))).toBe('2024/01/15');
    expect(fmt({ timestampType: 'DATE_STRING', inputDateFormat: 'yyyy', outputDateFormat: 'yyyy/MM/dd' })(new Date(T))).toBe('2024/01/15');
  });

  test('output defaults to yyyy-MM-dd in UTC', () => {
    expect(fmt({ timestampType: 'EPOCHMILLISECONDS' })(T)).toBe('2024-01-15');
  });

  test('DATE_STRING keeps the parsed offset for output unless an output zone is set', () => {
    const base: TimestampKeyGenOptions = { timestampType: 'DATE_STRING', inputDateFormat: "yyyy-MM-dd'T'HH:mm:ssZ", outputDateFormat: 'yyyy/MM/dd/HH' };
    expect(fmt(base)('2024-01-15T23:30:00+05:30')).toBe('2024/01/15/23');
    expect(fmt({ ...base, outputTimezone: 'UTC' })('2024-01-15T23:30:00+05:30')).toBe('2024/01/15/18');
    expect(fmt({ ...base, timezone: 'America/New_York' })('2024-01-15T23:30:00+05:30')).toBe('2024/01/15/13');
  });

  test('input zone applies to strings without an offset; output zone to numbers', () => {
    const noOffset: TimestampKeyGenOptions = { timestampType: 'DATE_STRING', inputDateFormat: 'yyyy-MM-dd HH:mm', outputDateFormat: 'yyyy-MM-dd HH' };
    expect(fmt(noOffset)('2024-01-15 23:30')).toBe('2024-01-15 23');
    expect(fmt({ ...noOffset, inputTimezone: '+02:00', outputTimezone: 'UTC' })('2024-01-15 01:30')).toBe('2024-01-14 23');
    expect(fmt({ timestampType: 'EPOCHMILLISECONDS', outputDateFormat: 'yyyy-MM-dd HH', outputTimezone: 'Asia/Kolkata' })(T)).toBe('2024-01-15 16');
    expect(fmt({ timestampType: 'EPOCHMILLISECONDS', outputDateFormat: 'yyyy-MM-dd HH', timezone: 'GMT+01:00' })(T)).toBe('2024-01-15 11');
  });

  test('several input formats, split by the delimiter regex; the first that matches wins', () => {
    const multi = fmt({ timestampType: 'DATE_STRING', inputDateFormat: "yyyy-MM-dd'T'HH:mm:ss.SSSZ, yyyy-MM-dd, yyyyMMdd", outputDateFormat: 'yyyy/MM/dd' });
    expect(multi('2024-01-15T10:30:00.000Z')).toBe('2024/01/15');
    expect(multi('2024-02-01')).toBe('2024/02/01');
    expect(multi('20240301')).toBe('2024/03/01');
    const err = thrown(() => multi('15/01/2024'));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.context.value).toBe('15/01/2024');
    const piped = fmt({ timestampType: 'DATE_STRING', inputDateFormat: 'yyyy-MM-dd|dd.MM.yyyy', inputDateFormatListDelimiterRegex: '\\|', outputDateFormat: 'yyyyMMdd' });
    expect(piped('15.01.2024')).toBe('20240115');
  });

  test("null values get Hudi's default: epoch value 1", () => {
    expect(fmt({ timestampType: 'UNIX_TIMESTAMP', outputDateFormat: 'yyyy-MM-dd HH:mm:ss' })(null)).toBe('1970-01-01 00:00:01');
    expect(fmt({ timestampType: 'EPOCHMILLISECONDS', outputDateFormat: 'yyyy/MM/dd' })(undefined)).toBe('1970/01/01');
    expect(fmt({ timestampType: 'DATE_STRING', inputDateFormat: "yyyy-MM-dd'T'HH:mm:ss.SSSZ", outputDateFormat: 'yyyy/MM/dd/HH' })(null)).toBe('1970/01/01/00');
  });

  test('type mismatches and bad values are INVALID_ARGUMENT', () => {
    expect(thrown(() => fmt({ timestampType: 'DATE_STRING', inputDateFormat: 'yyyy', outputDateFormat: 'yyyy' })(5)).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => fmt({ timestampType: 'EPOCHMILLISECONDS' })('2024-01-01')).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => fmt({ timestampType: 'EPOCHMILLISECONDS' })(NaN)).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => fmt({ timestampType: 'EPOCHMILLISECONDS' })(10n ** 20n)).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => fmt({ timestampType: 'EPOCHMILLISECONDS' })({})).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => fmt({ timestampType: 'DATE_STRING', outputDateFormat: 'yyyy' })).message).toMatch(/input date format/);
    expect(thrown(() => fmt({ timestampType: 'NOPE' as never })).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => fmt({ timestampType: 'EPOCHMILLISECONDS', timezone: 'Nowhere/Land' })).code).toBe('INVALID_ARGUMENT');
  });
});

describe('timestamp key generator', () => {
  const options = { type: 'TIMESTAMP', recordKeyFields: ['id'], partitionFields: ['ts'] } as const;

  test('plain, hive style and urlencoded paths', () => {
    const ts = { timestampType: 'EPOCHMILLISECONDS', outputDateFormat: 'yyyy/MM/dd' } as const;
    const plain = createKeyGenerator({ ...options, hiveStylePartitioning: false, urlEncodePartitioning: false, timestamp: ts });
    expect(plain.partitionPath({ id: 'a', ts: T })).toBe('2024/01/15');
    expect(plain.recordKey({ id: 'a', ts: T })).toBe('a');
    const hive = createKeyGenerator({ ...options, hiveStylePartitioning: true, urlEncodePartitioning: false, timestamp: ts });
    expect(hive.partitionPath({ id: 'a', ts: T })).toBe('ts=2024/01/15');
    const encoded = createKeyGenerator({ ...options, hiveStylePartitioning: true, urlEncodePartitioning: true, timestamp: ts });
    expect(encoded.partitionPath({ id: 'a', ts: T })).toBe('ts=2024%2F01%2F15');
  });

  test('loadKeyGenerator loads the formatter on demand; createKeyGenerator without it refuses TIMESTAMP', async () => {
    const ts = { timestampType: 'EPOCHMILLISECONDS', outputDateFormat: 'yyyy/MM/dd' } as const;
    const loaded = await loadKeyGenerator({ ...options, hiveStylePartitioning: false, urlEncodePartitioning: false, timestamp: ts });
    expect(loaded.partitionPath({ id: 'a', ts: T })).toBe('2024/01/15');
    expect(thrown(() => createWithoutLoader({ ...options, hiveStylePartitioning: false, urlEncodePartitioning: false, timestamp: ts })).message).toMatch(/loadKeyGenerator/);
    const simple = await loadKeyGenerator({ type: 'SIMPLE', recordKeyFields: ['id'], partitionFields: ['city'], hiveStylePartitioning: false, urlEncodePartitioning: false });
    expect(simple.partitionPath({ id: 'a', city: 'sf' })).toBe('sf');
  });

  test('errors name the partition field', () => {
    const kg = createKeyGenerator({ ...options, hiveStylePartitioning: false, urlEncodePartitioning: false, timestamp: { timestampType: 'EPOCHMILLISECONDS' } });
    const err = thrown(() => kg.partitionPath({ id: 'a', ts: 'soon' }));
    expect(err.context.field).toBe('ts');
    expect(err.message).toContain("'ts'");
  });

  test('an output format that would make unsafe segments is refused', () => {
    for (const outputDateFormat of ["yyyy'/../'MM", "'.'yyyy", 'yyyy//MM', "yyyy'/'"]) {
      const kg = createKeyGenerator({ ...options, hiveStylePartitioning: false, urlEncodePartitioning: false, timestamp: { timestampType: 'EPOCHMILLISECONDS', outputDateFormat } });
      expect(thrown(() => kg.partitionPath({ id: 'a', ts: T })).code).toBe('INVALID_ARGUMENT');
    }
  });
});

describe('properties', () => {
  test('read from hoodie.properties keys (and the deprecated deltastreamer prefix)', () => {
    const props = new Map([
      ['hoodie.keygen.timebased.timestamp.type', 'scalar'],
      ['hoodie.keygen.timebased.timestamp.scalar.time.unit', 'days'],
      ['hoodie.deltastreamer.keygen.timebased.output.dateformat', 'yyyy/MM'],
      ['hoodie.keygen.timebased.timezone', 'UTC'],
      ['hoodie.keygen.timebased.input.timezone', ''],
    ]);
    expect(timestampOptionsFromProperties(props)).toEqual({ timestampType: 'SCALAR', scalarTimeUnit: 'DAYS', outputDateFormat: 'yyyy/MM', timezone: 'UTC' });
    expect(timestampOptionsFromProperties({})).toBeUndefined();
    expect(thrown(() => timestampOptionsFromProperties({ 'hoodie.keygen.timebased.timestamp.type': 'WEEKS' })).code).toBe('INVALID_ARGUMENT');
  });

  test('written with explicit defaults and read back', () => {
    const props = timestampOptionsToProperties({ timestampType: 'DATE_STRING', inputDateFormat: 'yyyy-MM-dd' });
    expect(props).toEqual({
      'hoodie.keygen.timebased.timestamp.type': 'DATE_STRING',
      'hoodie.keygen.timebased.input.dateformat': 'yyyy-MM-dd',
      'hoodie.keygen.timebased.output.dateformat': 'yyyy-MM-dd',
    });
    expect(timestampOptionsFromProperties(props)).toEqual({ timestampType: 'DATE_STRING', inputDateFormat: 'yyyy-MM-dd', outputDateFormat: 'yyyy-MM-dd' });
  });
});
