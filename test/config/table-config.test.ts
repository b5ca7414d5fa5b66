// parseTableConfig: every fixture table's hoodie.properties (read from the zips in place) parses to the
// expected typed view with a valid checksum; synthetic files cover each rejection (hudi-format.md §2).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, inject, it } from 'vitest';
import { tableChecksum } from '../../src/config/checksum.js';
import { formatProperties, parseProperties } from '../../src/config/properties.js';
import { parseTableConfig } from '../../src/config/table-config.js';
import { LakeletError } from '../../src/errors.js';

/** Every `.zip` below the fixtures folder, as paths relative to it. */
function fixtureZips(): string[] {
  const root = inject('FIXTURES_DIR');
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(root, rel))) {
      const p = rel === '' ? name : `${rel}/${name}`;
      if (statSync(join(root, p)).isDirectory()) walk(p);
      else if (name.endsWith('.zip')) out.push(p);
    }
  };
  walk('');
  return out.sort();
}

/** Every hoodie.properties inside one zip (data table and metadata table), path → text. */
function propertiesIn(zip: string): Map<string, string> {
  const bytes = new Uint8Array(readFileSync(join(inject('FIXTURES_DIR'), zip)));
  const files = unzipSync(bytes, { filter: (f) => f.name.endsWith('.hoodie/hoodie.properties') && !f.name.startsWith('__MACOSX/') });
  return new Map(Object.entries(files).map(([p, b]) => [p, new TextDecoder().decode(b)]));
}

const isMetadataTable = (path: string) => path.includes('/.hoodie/metadata/');

function rejection(text: string): LakeletError {
  try {
    parseTableConfig(text, 'T/.hoodie/hoodie.properties');
  } catch (err) {
    expect(err).toBeInstanceOf(LakeletError);
    return err as LakeletError;
  }
  throw new Error('expected parseTableConfig to throw');
}

describe('fixture hoodie.properties', () => {
  const zips = fixtureZips();

  it('finds the fixture tables', () => {
    expect(zips.length).toBeGreaterThanOrEqual(14);
  });

  it.each(zips)('%s: the data table parses and its checksum is crc32("<db>.<name>")', (zip) => {
    const all = propertiesIn(zip);
    const data = [...all].filter(([p]) => !isMetadataTable(p));
    expect(data).toHaveLength(1);
    const [path, text] = data[0] as [string, string];
    const config = parseTableConfig(text, path);
    const props = parseProperties(text);
    expect(config.name).toBe(props.get('hoodie.table.name'));
    expect(config.name).toMatch(/^v\d_\w+$/);
    expect(config.databaseName).toBe('default');
    expect(config.tableType).toBe(zip.includes('/cow/') ? 'COPY_ON_WRITE' : 'MERGE_ON_READ');
    expect(config.version).toBe(Number(/\/v(\d)_/.exec(`/${zip.split('/').pop()}`)?.[1]));
    expect(config.timelineLayoutVersion).toBe(config.version >= 8 ? 2 : 1);
    expect(config.timelinePath).toBe(config.version >= 8 ? '.hoodie/timeline' : '.hoodie');
    expect(config.archivePath).toBe(config.version >= 8 ? '.hoodie/timeline/history' : '.hoodie/archived');
    expect(config.baseFileFormat).toBe('PARQUET');
    expect(config.recordKeyFields.length).toBeGreaterThan(0);
    expect(config.checksum).toBe(tableChecksum('default', config.name));
    expect(config.properties.get('hoodie.table.checksum')).toBe(String(config.checksum));
  });

  // vitest's it.each([]) registers no test at all: guard the filtered list so an empty one fails.
  const withMetadataTable = zips.filter((z) => [...propertiesIn(z).keys()].some(isMetadataTable));
  it('finds fixture tables that carry a metadata table', () => {
    expect(withMetadataTable.length).toBeGreaterThanOrEqual(3);
  });

  it.each(withMetadataTable)(
    '%s: the metadata table (HFILE) is refused, yet its checksum follows the rule with no database',
    (zip) => {
      for (const [path, text] of propertiesIn(zip)) {
        if (!isMetadataTable(path)) continue;
        const props = parseProperties(text);
        const name = props.get('hoodie.table.name') ?? '';
        expect(name.endsWith('_metadata')).toBe(true);
        expect(props.get('hoodie.database.name')).toBeUndefined();
        expect(Number(props.get('hoodie.table.checksum'))).toBe(tableChecksum(undefined, name));
        const err = rejection(text);
        expect(err.code).toBe('UNSUPPORTED');
        expect(err.message).toContain('HFILE');
      }
    },
  );

  it('reads the facts of individual tables', () => {
    const one = (zip: string) => {
      const [[path, text]] = [...propertiesIn(zip)].filter(([p]) => !isMetadataTable(p)) as [[string, string]];
      return parseTableConfig(text, path);
    };
    const complex = one('sample_table/cow/v6_complexkeygen_hivestyle.zip');
    expect(complex).toMatchObject({
      recordKeyFields: ['id', 'name'], partitionFields: ['byteField', 'shortField'], orderingFields: ['longField'],
      keyGeneratorType: 'COMPLEX', keyGenerator: 'org.apache.hudi.keygen.ComplexKeyGenerator', hiveStylePartitioning: true,
      urlEncodePartitioning: false, populateMetaFields: true, recordMergeMode: 'EVENT_TIME_ORDERING',
    });
    expect(complex.createSchema).toMatch(/^\{"type":"record"/);
    expect(one('sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip')).toMatchObject({ hiveStylePartitioning: false, keyGeneratorType: 'SIMPLE' });
    expect(one('sample_table/cow/v6_simplekeygen_hivestyle_no_metafields.zip').populateMetaFields).toBe(false);
    expect(one('sample_table/cow/v6_empty.zip')).toMatchObject({ orderingFields: [], partitionFields: [], keyGeneratorType: 'NON_PARTITION', recordMergeMode: 'COMMIT_TIME_ORDERING' });
    expect(one('sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip')).toMatchObject({ keyGeneratorType: 'TIMESTAMP', partitionFields: ['ts_str'], orderingFields: ['txn_ts'], version: 9 });
    expect(one('quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip')).toMatchObject({ keyGeneratorType: 'SIMPLE', keyGenerator: 'SIMPLE', recordKeyFields: ['uuid'], orderingFields: ['ts'], partitionFields: ['city'] });
  });
});

/** A minimal valid v6 table's properties, with overrides (undefined removes a key). */
function props(overrides: Record<string, string | undefined> = {}): string {
  const base: Record<string, string | undefined> = {
    'hoodie.table.name': 'trips',
    'hoodie.database.name': 'default',
    'hoodie.table.type': 'COPY_ON_WRITE',
    'hoodie.table.version': '6',
    'hoodie.timeline.layout.version': '1',
    'hoodie.table.recordkey.fields': 'uuid',
    'hoodie.table.checksum': String(tableChecksum('default', 'trips')),
    ...overrides,
  };
  return formatProperties(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined), ['Updated at 2024-01-01T00:00:00Z']);
}

describe('parseTableConfig on synthetic files', () => {
  it('parses the minimal table with defaults', () => {
    const c = parseTableConfig(props());
    expect(c).toMatchObject({
      name: 'trips', databaseName: 'default', tableType: 'COPY_ON_WRITE', version: 6, timelineLayoutVersion: 1,
      recordKeyFields: ['uuid'], orderingFields: [], partitionFields: [], keyGeneratorType: 'NON_PARTITION',
      hiveStylePartitioning: false, urlEncodePartitioning: false, populateMetaFields: true, baseFileFormat: 'PARQUET',
      recordMergeMode: 'COMMIT_TIME_ORDERING', createSchema: undefined,
    });
  });

  it('accepts versions 8 and 9 with layout 2, and an absent layout defaults from the version', () => {
    expect(parseTableConfig(props({ 'hoodie.table.version': '8', 'hoodie.timeline.layout.version': '2' })).timelineLayoutVersion).toBe(2);
    expect(parseTableConfig(props({ 'hoodie.table.version': '9', 'hoodie.timeline.layout.version': undefined })).timelineLayoutVersion).toBe(2);
    expect(parseTableConfig(props({ 'hoodie.timeline.layout.version': undefined })).timelineLayoutVersion).toBe(1);
  });

  it('honours custom timeline and archive folders', () => {
    const v8 = parseTableConfig(props({ 'hoodie.table.version': '8', 'hoodie.timeline.layout.version': '2', 'hoodie.timeline.path': 'tl', 'hoodie.timeline.history.path': 'hist' }));
    expect([v8.timelinePath, v8.archivePath]).toEqual(['.hoodie/tl', '.hoodie/tl/hist']);
    const v6 = parseTableConfig(props({ 'hoodie.archivelog.folder': 'old' }));
    expect([v6.timelinePath, v6.archivePath]).toEqual(['.hoodie', '.hoodie/old']);
  });

  it('prefers hoodie.table.ordering.fields over the precombine field, and the explicit merge mode', () => {
    expect(parseTableConfig(props({ 'hoodie.table.precombine.field': 'ts' })).orderingFields).toEqual(['ts']);
    const c = parseTableConfig(props({ 'hoodie.table.precombine.field': 'ts', 'hoodie.table.ordering.fields': 'a, b' }));
    expect(c.orderingFields).toEqual(['a', 'b']);
    expect(c.recordMergeMode).toBe('EVENT_TIME_ORDERING');
    expect(parseTableConfig(props({ 'hoodie.table.precombine.field': 'ts', 'hoodie.record.merge.mode': 'COMMIT_TIME_ORDERING' })).recordMergeMode).toBe('COMMIT_TIME_ORDERING');
  });

  it('maps key generator class names and enum names to one type', () => {
    const kg = (v: string, partitions = 'p') => parseTableConfig(props({ 'hoodie.table.keygenerator.class': v, 'hoodie.table.partition.fields': partitions })).keyGeneratorType;
    expect(kg('org.apache.hudi.keygen.SimpleKeyGenerator')).toBe('SIMPLE');
    expect(kg('org.apache.hudi.keygen.ComplexKeyGenerator')).toBe('COMPLEX');
    expect(kg('org.apache.hudi.keygen.NonpartitionedKeyGenerator', '')).toBe('NON_PARTITION');
    expect(kg('org.apache.hudi.keygen.TimestampBasedKeyGenerator')).toBe('TIMESTAMP');
    expect(kg('org.apache.hudi.keygen.CustomKeyGenerator')).toBe('CUSTOM');
    expect(kg('com.example.MyKeyGen')).toBe('OTHER');
    expect(parseTableConfig(props({ 'hoodie.table.keygenerator.type': 'TIMESTAMP', 'hoodie.table.partition.fields': 'p' })).keyGeneratorType).toBe('TIMESTAMP');
  });

  it('has no checksum when the key is absent', () => {
    expect(parseTableConfig(props({ 'hoodie.table.checksum': undefined })).checksum).toBeUndefined();
  });

  it.each(['1', '2', '10', '0', '', 'six', '5.5'])('table version %s → UNSUPPORTED naming the value', (v) => {
    const err = rejection(props({ 'hoodie.table.version': v }));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.message).toContain(`"${v}"`);
    expect(err.context).toMatchObject({ field: 'hoodie.table.version', value: v, path: 'T/.hoodie/hoodie.properties' });
  });

  it.each([
    ['6', '2'],
    ['8', '1'],
    ['9', '1'],
    ['6', '0'],
    ['7', '0'],
    ['5', '2'],
    ['3', '3'],
  ])('version %s with layout %s → UNSUPPORTED', (version, layout) => {
    const err = rejection(props({ 'hoodie.table.version': version, 'hoodie.timeline.layout.version': layout }));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.context.field).toBe('hoodie.timeline.layout.version');
    expect(err.message).toContain(layout);
  });

  it.each(['LANCE', 'ORC', 'HFILE', 'orc'])('base file format %s → UNSUPPORTED naming the format', (format) => {
    const err = rejection(props({ 'hoodie.table.base.file.format': format }));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.message).toContain(format.toUpperCase());
  });

  it('an explicit PARQUET base format is fine', () => {
    expect(parseTableConfig(props({ 'hoodie.table.base.file.format': 'parquet' })).baseFileFormat).toBe('PARQUET');
  });

  it('drop.partition.columns=true → UNSUPPORTED; false is fine', () => {
    const err = rejection(props({ 'hoodie.datasource.write.drop.partition.columns': 'true' }));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.message).toContain('drop.partition.columns');
    expect(parseTableConfig(props({ 'hoodie.datasource.write.drop.partition.columns': 'false' })).name).toBe('trips');
  });

  it.each(['hoodie.table.name', 'hoodie.table.type'])('missing %s → INVALID_TABLE naming the key', (key) => {
    const err = rejection(props({ [key]: undefined }));
    expect(err.code).toBe('INVALID_TABLE');
    expect(err.message).toContain(key);
    expect(err.context).toMatchObject({ field: key, path: 'T/.hoodie/hoodie.properties' });
  });

  it('an unknown table type → INVALID_TABLE naming it', () => {
    const err = rejection(props({ 'hoodie.table.type': 'MERGE_ON_WRITE' }));
    expect(err.code).toBe('INVALID_TABLE');
    expect(err.message).toContain('MERGE_ON_WRITE');
  });

  it('a wrong checksum → CORRUPT_FILE naming the value', () => {
    const wrong = String(tableChecksum('default', 'trips') + 1);
    const err = rejection(props({ 'hoodie.table.checksum': wrong }));
    expect(err.code).toBe('CORRUPT_FILE');
    expect(err.message).toContain(wrong);
    expect(err.context.path).toBe('T/.hoodie/hoodie.properties');
  });

  it('the checksum covers the database name', () => {
    expect(rejection(props({ 'hoodie.database.name': 'other' })).code).toBe('CORRUPT_FILE');
    expect(rejection(props({ 'hoodie.database.name': undefined })).code).toBe('CORRUPT_FILE');
    const noDb = props({ 'hoodie.database.name': undefined, 'hoodie.table.checksum': String(tableChecksum(undefined, 'trips')) });
    expect(parseTableConfig(noDb).databaseName).toBeUndefined();
  });
});
