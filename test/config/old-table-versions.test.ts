// parseTableConfig on hoodie.properties of table versions 3, 4, 5 (Hudi 0.10–0.13) and 7 (0.16), written by hand
// from docs/hudi-format-v3-v5.md §2: the keys those releases did and did not write, their defaults, the
// version-dependent default partition path and the timeline layouts accepted.
import { describe, expect, it } from 'vitest';
import { tableChecksum } from '../../src/config/checksum.js';
import { formatProperties } from '../../src/config/properties.js';
import { defaultPartitionPathOf, parseTableConfig, SUPPORTED_TABLE_VERSIONS } from '../../src/config/table-config.js';
import { LakeletError } from '../../src/errors.js';

const text = (entries: Record<string, string>): string => formatProperties(Object.entries(entries), ['Updated at 2022-01-05T10:00:00.000Z']);

/** What Hudi 0.10 (v3) wrote for a MOR table: no checksum, database name, metadata partitions, CDC or merger strategy. */
const V3 = {
  'hoodie.table.name': 'stock_ticks_mor',
  'hoodie.table.type': 'MERGE_ON_READ',
  'hoodie.table.version': '3',
  'hoodie.timeline.layout.version': '1',
  'hoodie.archivelog.folder': 'archived',
  'hoodie.table.precombine.field': 'ts',
  'hoodie.table.recordkey.fields': 'key',
  'hoodie.table.partition.fields': 'date',
  'hoodie.table.keygenerator.class': 'org.apache.hudi.keygen.SimpleKeyGenerator',
  'hoodie.datasource.write.hive_style_partitioning': 'false',
  'hoodie.datasource.write.partitionpath.urlencode': 'false',
  'hoodie.populate.meta.fields': 'true',
  'hoodie.compaction.payload.class': 'org.apache.hudi.common.model.OverwriteWithLatestAvroPayload',
};

function rejection(props: string): LakeletError {
  try {
    parseTableConfig(props);
  } catch (err) {
    if (err instanceof LakeletError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('table versions 3, 4, 5 and 7', () => {
  it('lakelet reads versions 3 to 9', () => {
    expect([...SUPPORTED_TABLE_VERSIONS]).toEqual([3, 4, 5, 6, 7, 8, 9]);
  });

  it('a v3 file without checksum, database name, base file format or drop.partition.columns parses with defaults', () => {
    const c = parseTableConfig(text(V3));
    expect(c).toMatchObject({
      name: 'stock_ticks_mor', databaseName: undefined, tableType: 'MERGE_ON_READ', version: 3, timelineLayoutVersion: 1,
      timelinePath: '.hoodie', archivePath: '.hoodie/archived', recordKeyFields: ['key'], orderingFields: ['ts'],
      partitionFields: ['date'], keyGeneratorType: 'SIMPLE', baseFileFormat: 'PARQUET', checksum: undefined,
      defaultPartitionPath: 'default', recordMergeMode: 'EVENT_TIME_ORDERING',
    });
  });

  it('an absent archive folder is Hudi\'s default `archived`', () => {
    const { 'hoodie.archivelog.folder': _omit, ...rest } = V3;
    expect(parseTableConfig(text(rest)).archivePath).toBe('.hoodie/archived');
  });

  it('a v4 file carries the checksum ThreeToFourUpgradeHandler adds, checked like v6', () => {
    const v4 = { ...V3, 'hoodie.table.version': '4', 'hoodie.database.name': 'default', 'hoodie.table.checksum': String(tableChecksum('default', 'stock_ticks_mor')) };
    expect(parseTableConfig(text(v4))).toMatchObject({ version: 4, databaseName: 'default', checksum: tableChecksum('default', 'stock_ticks_mor'), defaultPartitionPath: 'default' });
    const err = rejection(text({ ...v4, 'hoodie.table.checksum': '12345' }));
    expect(err.code).toBe('CORRUPT_FILE');
    expect(err.context).toMatchObject({ field: 'hoodie.table.checksum', value: '12345' });
  });

  it('a v5 file of Hudi 0.13 (CDC flag, merger strategy, no base file format) parses; its default partition is __HIVE_DEFAULT_PARTITION__', () => {
    const v5 = {
      ...V3, 'hoodie.table.version': '5', 'hoodie.table.cdc.enabled': 'false', 'hoodie.datasource.write.drop.partition.columns': 'false',
      'hoodie.compaction.record.merger.strategy': 'eeb8d96f-b1e4-49fd-bbf8-28ac514178e5', 'hoodie.table.checksum': String(tableChecksum(undefined, 'stock_ticks_mor')),
    };
    expect(parseTableConfig(text(v5))).toMatchObject({ version: 5, defaultPartitionPath: '__HIVE_DEFAULT_PARTITION__', baseFileFormat: 'PARQUET' });
  });

  it('the default partition path changes at version 5', () => {
    expect([3, 4, 5, 6, 7, 8, 9].map(defaultPartitionPathOf)).toEqual(['default', 'default', ...Array(5).fill('__HIVE_DEFAULT_PARTITION__')]);
  });

  it.each(['3', '4', '5'])('v%s: layout 1, 0 (before Hudi 0.5.1) and absent all read as layout 1, the written text kept', (v) => {
    for (const layout of ['1', '0', undefined]) {
      const entries: Record<string, string> = { ...V3, 'hoodie.table.version': v };
      if (layout === undefined) delete entries['hoodie.timeline.layout.version'];
      else entries['hoodie.timeline.layout.version'] = layout;
      const c = parseTableConfig(text(entries));
      expect({ layout, read: c.timelineLayoutVersion, written: c.timelineLayoutVersionAsWritten, path: c.timelinePath }).toEqual({ layout, read: 1, written: layout, path: '.hoodie' });
    }
  });

  it.each([['3', '2'], ['5', '2'], ['7', '2'], ['7', '0'], ['6', '0']])('v%s with layout %s → UNSUPPORTED naming the layout', (v, layout) => {
    const err = rejection(text({ ...V3, 'hoodie.table.version': v, 'hoodie.timeline.layout.version': layout }));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.context).toMatchObject({ field: 'hoodie.timeline.layout.version', value: layout });
  });

  it('v7 (Hudi 0.16) reads like v6: layout 1, __HIVE_DEFAULT_PARTITION__', () => {
    expect(parseTableConfig(text({ ...V3, 'hoodie.table.version': '7' }))).toMatchObject({ version: 7, timelineLayoutVersion: 1, defaultPartitionPath: '__HIVE_DEFAULT_PARTITION__' });
  });

  it.each(['0', '1', '2', '10', '-3', '3.0x'])('version %s → UNSUPPORTED naming it', (v) => {
    const err = rejection(text({ ...V3, 'hoodie.table.version': v }));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.context).toMatchObject({ field: 'hoodie.table.version', value: v });
    expect(err.message).toContain(`"${v}"`);
  });
});
