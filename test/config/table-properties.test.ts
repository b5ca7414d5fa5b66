// createTableProperties / partitionMetadataText: v6 hoodie.properties that parse back through
// parseTableConfig with the same settings, carry every key the Spark-written fixtures have, and partition
// metadata files shaped exactly like the fixtures' (hudi-format.md §1, §2).
import { describe, expect, it } from 'vitest';
import { tableChecksum } from '../../src/config/checksum.js';
import { parseProperties } from '../../src/config/properties.js';
import { parseTableConfig } from '../../src/config/table-config.js';
import {
  createTableProperties,
  DEFAULT_PAYLOAD_CLASS,
  OVERWRITE_WITH_LATEST_PAYLOAD_CLASS,
  partitionMetadataText,
  type CreateTablePropertiesOptions,
} from '../../src/config/table-properties.js';
import { LakeletError } from '../../src/errors.js';
import { zipEntry } from '../helpers/zip-entry.js';

const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const schema = (...fields: string[]) => ({ type: 'record', name: 't_record', namespace: 'hoodie.t', fields: fields.map((name) => ({ name, type: ['null', 'string'], default: null })) });
const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (err) {
    return err instanceof LakeletError ? err.code : 'not a LakeletError';
  }
  return undefined;
};

const cow: CreateTablePropertiesOptions = {
  name: 'trips',
  databaseName: 'default',
  tableType: 'COPY_ON_WRITE',
  recordKeyFields: ['uuid'],
  orderingFields: ['ts'],
  partitionFields: ['city'],
  keyGeneratorClass: 'org.apache.hudi.keygen.SimpleKeyGenerator',
  hiveStylePartitioning: true,
  urlEncodePartitioning: false,
  populateMetaFields: true,
  createSchema: schema('uuid', 'ts', 'city', 'fare'),
  savedAt: new Date('2025-03-31T03:06:42.363Z'),
};

const configs: [string, CreateTablePropertiesOptions][] = [
  ['COW, partitioned, hive style', cow],
  ['MOR, non-partitioned, no database', {
    ...cow, name: 'mor_np', databaseName: undefined, tableType: 'MERGE_ON_READ', partitionFields: [],
    keyGeneratorClass: 'org.apache.hudi.keygen.NonpartitionedKeyGenerator', hiveStylePartitioning: false,
  }],
  ['complex key, two partition fields, url-encoded, no meta fields', {
    ...cow, name: 'complex', recordKeyFields: ['uuid', 'fare'], partitionFields: ['city', 'ts'],
    keyGeneratorClass: 'org.apache.hudi.keygen.ComplexKeyGenerator', urlEncodePartitioning: true, populateMetaFields: false,
  }],
  ['no ordering field (commit-time ordering)', { ...cow, name: 'append', orderingFields: [] }],
  ['commit-time ordering with an ordering field', { ...cow, name: 'latest_wins', recordMergeMode: 'COMMIT_TIME_ORDERING' }],
];

describe('createTableProperties', () => {
  it.each(configs)('%s: parses back through parseTableConfig with the same settings', (_name, o) => {
    const c = parseTableConfig(createTableProperties(o));
    expect(c).toMatchObject({
      name: o.name,
      databaseName: o.databaseName,
      tableType: o.tableType,
      version: 6,
      timelineLayoutVersion: 1,
      timelinePath: '.hoodie',
      archivePath: '.hoodie/archived',
      recordKeyFields: o.recordKeyFields,
      orderingFields: o.orderingFields,
      partitionFields: o.partitionFields,
      keyGenerator: o.keyGeneratorClass,
      hiveStylePartitioning: o.hiveStylePartitioning,
      urlEncodePartitioning: o.urlEncodePartitioning,
      populateMetaFields: o.populateMetaFields,
      baseFileFormat: 'PARQUET',
      recordMergeMode: o.recordMergeMode ?? (o.orderingFields.length > 0 ? 'EVENT_TIME_ORDERING' : 'COMMIT_TIME_ORDERING'),
      checksum: tableChecksum(o.databaseName, o.name),
    });
    expect(JSON.parse(c.createSchema ?? 'null')).toEqual(o.createSchema);
    expect(c.properties.has('hoodie.table.metadata.partitions')).toBe(false);
  });

  it('writes the v6 keys with fixed values, Java comment lines and escaped schema', () => {
    const t = createTableProperties(cow);
    const lines = t.split('\n');
    expect(lines[0]).toBe('#Properties saved on 2025-03-31T03:06:42.363Z');
    expect(lines[1]).toBe('#Mon Mar 31 03:06:42 UTC 2025');
    expect(t.endsWith('\n')).toBe(true);
    const p = parseProperties(t);
    expect(Object.fromEntries([...p].filter(([k]) => k !== 'hoodie.table.create.schema'))).toEqual({
      'hoodie.table.precombine.field': 'ts',
      'hoodie.datasource.write.drop.partition.columns': 'false',
      'hoodie.table.partition.fields': 'city',
      'hoodie.table.type': 'COPY_ON_WRITE',
      'hoodie.archivelog.folder': 'archived',
      'hoodie.populate.meta.fields': 'true',
      'hoodie.timeline.layout.version': '1',
      'hoodie.table.version': '6',
      'hoodie.table.recordkey.fields': 'uuid',
      'hoodie.database.name': 'default',
      'hoodie.datasource.write.partitionpath.urlencode': 'false',
      'hoodie.table.name': 'trips',
      'hoodie.table.keygenerator.class': 'org.apache.hudi.keygen.SimpleKeyGenerator',
      'hoodie.datasource.write.hive_style_partitioning': 'true',
      'hoodie.table.base.file.format': 'PARQUET',
      'hoodie.compaction.payload.class': DEFAULT_PAYLOAD_CLASS,
      'hoodie.compaction.record.merger.strategy': 'eeb8d96f-b1e4-49fd-bbf8-28ac514178e5',
      'hoodie.table.timeline.timezone': 'UTC',
      'hoodie.table.checksum': String(tableChecksum('default', 'trips')),
    });
    expect(t).toContain('hoodie.table.create.schema={"type"\\:"record","name"\\:"t_record"');
    expect(createTableProperties({ ...cow, savedAt: new Date('2024-07-07T05:13:01Z') }).split('\n').slice(0, 2))
      .toEqual(['#Properties saved on 2024-07-07T05:13:01Z', '#Sun Jul 07 05:13:01 UTC 2024']);
  });

  it('chooses the payload class by merge mode and records a mode the ordering field does not imply', () => {
    const props = (o: CreateTablePropertiesOptions) => parseProperties(createTableProperties(o));
    expect(props(cow).get('hoodie.compaction.payload.class')).toBe(DEFAULT_PAYLOAD_CLASS);
    expect(props(cow).has('hoodie.record.merge.mode')).toBe(false);
    const append = props({ ...cow, orderingFields: [] });
    expect(append.get('hoodie.compaction.payload.class')).toBe(OVERWRITE_WITH_LATEST_PAYLOAD_CLASS);
    expect(append.has('hoodie.table.precombine.field')).toBe(false);
    expect(append.has('hoodie.record.merge.mode')).toBe(false);
    const latest = props({ ...cow, recordMergeMode: 'COMMIT_TIME_ORDERING' });
    expect(latest.get('hoodie.compaction.payload.class')).toBe(OVERWRITE_WITH_LATEST_PAYLOAD_CLASS);
    expect(latest.get('hoodie.record.merge.mode')).toBe('COMMIT_TIME_ORDERING');
    expect(props({ ...cow, payloadClass: 'com.x.MyPayload', recordMergeMode: 'CUSTOM' }).get('hoodie.compaction.payload.class')).toBe('com.x.MyPayload');
  });

  it('carries every key/value of the Spark-written v6 MOR fixture (besides the comment lines)', () => {
    const fixture = parseProperties(text(zipEntry('quickstart_trips_table/mor/avro/v6_trips_8i1u.zip', 'v6_trips_8i1u/.hoodie/hoodie.properties')));
    const ours = parseProperties(createTableProperties({
      name: 'v6_trips_8i1u',
      databaseName: 'default',
      tableType: 'MERGE_ON_READ',
      recordKeyFields: ['uuid'],
      orderingFields: ['ts'],
      partitionFields: ['city'],
      keyGeneratorClass: 'org.apache.hudi.keygen.SimpleKeyGenerator',
      hiveStylePartitioning: true,
      urlEncodePartitioning: false,
      populateMetaFields: true,
      createSchema: fixture.get('hoodie.table.create.schema') ?? '',
      payloadClass: OVERWRITE_WITH_LATEST_PAYLOAD_CLASS,
    }));
    for (const [k, v] of fixture) expect([k, ours.get(k)]).toEqual([k, v]);
    expect([...ours.keys()].filter((k) => !fixture.has(k)).sort()).toEqual([
      'hoodie.populate.meta.fields', 'hoodie.table.base.file.format', 'hoodie.table.timeline.timezone',
    ]);
  });

  it('applies extra properties but refuses identity keys and the metadata table', () => {
    const p = parseProperties(createTableProperties({ ...cow, extra: { 'hoodie.archivelog.folder': 'arch', 'hoodie.x': 'y' } }));
    expect(p.get('hoodie.archivelog.folder')).toBe('arch');
    expect(p.get('hoodie.x')).toBe('y');
    for (const k of ['hoodie.table.version', 'hoodie.table.checksum', 'hoodie.table.metadata.partitions']) {
      expect(code(() => createTableProperties({ ...cow, extra: { [k]: '1' } }))).toBe('INVALID_ARGUMENT');
    }
  });

  it('rejects bad options with INVALID_ARGUMENT', () => {
    const bad: Partial<CreateTablePropertiesOptions>[] = [
      { name: '' },
      { recordKeyFields: [] },
      { orderingFields: ['ts', 'fare'] },
      { partitionFields: ['nope'] },
      { recordKeyFields: ['a,b'] },
      { createSchema: '{not json' },
      { createSchema: { type: 'string' } },
      { createSchema: { type: 'record', name: 'r', fields: [{ name: '_hoodie_commit_time', type: 'string' }, { name: 'uuid', type: 'string' }] } },
      { orderingFields: [], recordMergeMode: 'EVENT_TIME_ORDERING' },
      { recordMergeMode: 'CUSTOM' },
      { keyGeneratorClass: ' ' },
    ];
    for (const b of bad) expect([b, code(() => createTableProperties({ ...cow, ...b }))]).toEqual([b, 'INVALID_ARGUMENT']);
  });
});

describe('partitionMetadataText', () => {
  it('matches the fixture file shape (v6 non-hive-style partition "10")', () => {
    const fixture = text(zipEntry('sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip', '10/.hoodie_partition_metadata'));
    const ours = partitionMetadataText('20240707001301554', 1, new Date('2024-07-07T05:13:01Z'));
    expect(ours).toBe('#partition metadata\n#Sun Jul 07 05:13:01 UTC 2024\ncommitTime=20240707001301554\npartitionDepth=1\n');
    const strip = (s: string) => s.split('\n').filter((l) => !/^#\w{3} \w{3} \d{2} /.test(l)).join('\n');
    expect(strip(ours)).toBe(strip(fixture));
    expect(ours.split('\n').length).toBe(fixture.split('\n').length);
    expect(parseProperties(ours)).toEqual(parseProperties(fixture));
  });

  it('writes depth 0 for the root of a non-partitioned table and rejects bad input', () => {
    expect(partitionMetadataText('20240418173550988', 0)).toMatch(/^#partition metadata\n#\w{3} \w{3} \d{2} \d{2}:\d{2}:\d{2} UTC \d{4}\ncommitTime=20240418173550988\npartitionDepth=0\n$/);
    expect(code(() => partitionMetadataText('2024', 1))).toBe('INVALID_ARGUMENT');
    expect(code(() => partitionMetadataText('20240418173550988', -1))).toBe('INVALID_ARGUMENT');
  });
});
