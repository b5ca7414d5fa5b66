// The read planner: partition values decoded from paths (hive, plain, url-encoded; timestamp keygen →
// undefined), partition pruning by filters, slice selection for snapshot/read-optimized/incremental reads.
import { describe, expect, it } from 'vitest';
import { tableChecksum } from '../../src/config/checksum.js';
import { formatProperties } from '../../src/config/properties.js';
import { parseTableConfig, type TableConfig } from '../../src/config/table-config.js';
import { fileGroupKey } from '../../src/file-group/file-slice.js';
import { FileSystemView } from '../../src/file-group/file-system-view.js';
import { compileFilters, type Filter } from '../../src/expr/filter.js';
import type { ComparableKind } from '../../src/schema/compare.js';
import { inCommitRange, partitionMayMatch, partitionValues, planRead } from '../../src/plan/read-plan.js';
import { Timeline } from '../../src/timeline/timeline.js';

function config(extra: Record<string, string>): TableConfig {
  const props: Record<string, string> = {
    'hoodie.table.name': 't', 'hoodie.table.type': 'COPY_ON_WRITE', 'hoodie.table.version': '6',
    'hoodie.table.recordkey.fields': 'id', 'hoodie.table.checksum': String(tableChecksum(undefined, 't')), ...extra,
  };
  return parseTableConfig(formatProperties(Object.entries(props)));
}

const hive = config({ 'hoodie.table.partition.fields': 'byteField,shortField', 'hoodie.datasource.write.hive_style_partitioning': 'true', 'hoodie.table.keygenerator.class': 'org.apache.hudi.keygen.ComplexKeyGenerator' });
const plain = config({ 'hoodie.table.partition.fields': 'byteField', 'hoodie.datasource.write.hive_style_partitioning': 'false' });
const encoded = config({ 'hoodie.table.partition.fields': 'city', 'hoodie.datasource.write.hive_style_partitioning': 'true', 'hoodie.datasource.write.partitionpath.urlencode': 'true' });
const timestamp = config({ 'hoodie.table.partition.fields': 'ts_str', 'hoodie.table.keygenerator.class': 'org.apache.hudi.keygen.TimestampBasedKeyGenerator' });
const custom = config({ 'hoodie.table.partition.fields': 'a', 'hoodie.table.keygenerator.class': 'org.apache.hudi.keygen.CustomKeyGenerator' });
const unpartitioned = config({});
const city = config({ 'hoodie.table.partition.fields': 'city', 'hoodie.datasource.write.hive_style_partitioning': 'true' });

const kinds: Record<string, ComparableKind> = { byteField: 'number', shortField: 'bigint', city: 'string', ts_str: 'string', id: 'number' };
const compile = (...filters: Filter[]) => compileFilters(filters, (f) => ({ kind: kinds[f] ?? 'string', scale: 0 }));

describe('partitionValues', () => {
  it('decodes hive-style paths field by field', () => {
    expect(partitionValues(hive, 'byteField=10/shortField=300')).toEqual(new Map([['byteField', '10'], ['shortField', '300']]));
  });
  it('decodes plain paths by position', () => {
    expect(partitionValues(plain, '10')).toEqual(new Map([['byteField', '10']]));
  });
  it('url-decodes values when the table url-encodes them, and only then', () => {
    expect(partitionValues(encoded, 'city=san%20francisco')).toEqual(new Map([['city', 'san francisco']]));
    expect(partitionValues(encoded, 'city=a%2Fb')).toEqual(new Map([['city', 'a/b']]));
    expect(partitionValues(encoded, 'city=%E0%A4%A')).toBeUndefined();
    expect(partitionValues(city, 'city=san%20francisco')).toEqual(new Map([['city', 'san%20francisco']]));
  });
  it('maps the Hive default partition to null', () => {
    expect(partitionValues(plain, '__HIVE_DEFAULT_PARTITION__')).toEqual(new Map([['byteField', null]]));
    expect(partitionValues(hive, 'byteField=__HIVE_DEFAULT_PARTITION__/shortField=1')?.get('byteField')).toBeNull();
  });
  it('is undefined when the path cannot be decoded', () => {
    expect(partitionValues(timestamp, '2024/01/15/10')).toBeUndefined();
    expect(partitionValues(custom, 'x')).toBeUndefined();
    expect(partitionValues(unpartitioned, '')).toBeUndefined();
    expect(partitionValues(hive, 'byteField=10')).toBeUndefined();
    expect(partitionValues(hive, 'byteField=10/shortField=300/extra')).toBeUndefined();
    expect(partitionValues(hive, 'shortField=300/byteField=10')).toBeUndefined();
    expect(partitionValues(hive, '10/300')).toBeUndefined();
    expect(partitionValues(plain, '')).toBeUndefined();
  });
});

describe('partitionMayMatch', () => {
  const partitions = ['byteField=10/shortField=300', 'byteField=20/shortField=100', 'byteField=30/shortField=100'];
  const keep = (cfg: TableConfig, paths: string[], ...filters: Filter[]) => paths.filter((p) => partitionMayMatch(cfg, p, compile(...filters)));

  it('prunes by the typed partition values (the complex-keygen fixture facts)', () => {
    expect(keep(hive, partitions, ['byteField', '>=', '10'], ['byteField', '<', '20'], ['shortField', '!=', '100'])).toEqual(['byteField=10/shortField=300']);
    expect(keep(hive, partitions, ['byteField', '>=', '20'], ['shortField', '=', '300'])).toEqual([]);
    expect(keep(hive, partitions, ['byteField', '<', '20'], ['shortField', '=', '300'])).toEqual(['byteField=10/shortField=300']);
    expect(keep(hive, partitions, ['byteField', 'IN', ['20', '30']])).toEqual(['byteField=20/shortField=100', 'byteField=30/shortField=100']);
  });

  it('compares numbers numerically (9 < 10), not as text', () => {
    expect(keep(plain, ['9', '10', '100'], ['byteField', '<', '10'])).toEqual(['9']);
  });

  it('prunes string partitions with every comparison (the v8 trips fixture facts)', () => {
    const cities = ['city=chennai', 'city=san_francisco', 'city=sao_paulo'];
    const count = (op: Filter[1]) => keep(city, cities, ['city', op, 'san_francisco']).length;
    expect([count('='), count('>'), count('<'), count('<='), count('>=')]).toEqual([1, 1, 1, 2, 2]);
  });

  it('ignores filters on non-partition fields', () => {
    expect(keep(hive, partitions, ['id', '=', '1'])).toEqual(partitions);
  });

  it('a null (default) partition value never matches a filter on its field', () => {
    expect(keep(plain, ['__HIVE_DEFAULT_PARTITION__', '5'], ['byteField', '!=', '7'])).toEqual(['5']);
  });

  it('decodes lakelet\'s safety escapes in tables marked as escaped; unmarked tables keep the raw reading too', () => {
    const marked = config({ 'hoodie.table.partition.fields': 'city', 'hoodie.datasource.write.hive_style_partitioning': 'true', 'lakelet.partition.path.escaped': 'true' });
    const plainMarked = config({ 'hoodie.table.partition.fields': 'city', 'hoodie.datasource.write.hive_style_partitioning': 'false', 'lakelet.partition.path.escaped': 'true' });
    const paths = ['city=a%2Fb', 'city=a%252Fb', 'city=50%25off', 'city=a%5Cb', 'city=__HIVE_DEFAULT_PARTITION__'];
    expect(keep(marked, paths, ['city', '=', 'a/b'])).toEqual(['city=a%2Fb']);
    expect(keep(marked, paths, ['city', '=', 'a%2Fb'])).toEqual(['city=a%252Fb']);
    expect(keep(marked, paths, ['city', '=', '50%off'])).toEqual(['city=50%25off']);
    expect(keep(marked, paths, ['city', '=', 'a\\b'])).toEqual(['city=a%5Cb']);
    expect(keep(marked, paths, ['city', '=', ''])).toEqual(['city=__HIVE_DEFAULT_PARTITION__']);
    expect(keep(marked, paths, ['city', '!=', 'a/b'])).toEqual(paths.slice(1));
    expect(keep(plainMarked, ['%2E%2E', '%2Ehidden', '.x'], ['city', '=', '..'])).toEqual(['%2E%2E']);
    // Spark without urlencode writes values raw: `a%2Fb` may be that very text, and `50%off` is one.
    expect(keep(city, ['city=a%2Fb', 'city=50%off'], ['city', '=', 'a%2Fb'])).toEqual(['city=a%2Fb']);
    expect(keep(city, ['city=a%2Fb', 'city=50%off'], ['city', '=', 'a/b'])).toEqual(['city=a%2Fb']);
    expect(keep(city, ['city=a%2Fb', 'city=50%off'], ['city', '=', '50%off'])).toEqual(['city=50%off']);
    expect(partitionValues(city, 'city=50%off')).toEqual(new Map([['city', '50%off']]));
    expect(partitionValues(marked, 'city=50%off')).toBeUndefined();
  });

  it('keeps every partition it cannot decode', () => {
    expect(keep(timestamp, ['2024/01/15/10', '2024/01/16/11'], ['ts_str', '=', '2024-01-15 10:00:00'])).toEqual(['2024/01/15/10', '2024/01/16/11']);
    expect(keep(hive, ['garbage'], ['byteField', '=', '10'])).toEqual(['garbage']);
  });
});

describe('planRead', () => {
  const C1 = '20240101000000001';
  const C2 = '20240101000000002';
  const C3 = '20240101000000003';
  const f = (path: string) => ({ path, size: 1, kind: 'file' as const });
  const mor = new FileSystemView({
    files: [
      f(`city=a/g1-0_0-1-2_${C1}.parquet`), f(`city=a/.g1-0_${C1}.log.1_0-1-2`),
      f(`city=b/g2-0_0-1-2_${C1}.parquet`), f(`city=b/g2-0_0-1-2_${C3}.parquet`),
      f(`city=c/g3-0_0-1-2_${C2}.parquet`),
    ],
    timeline: Timeline.fromFileNames([`${C1}.deltacommit`, `${C2}.deltacommit`, `${C3}.deltacommit`]),
    timelineLayoutVersion: 1,
    replaced: [],
  });
  const request = { asOf: undefined, readOptimized: false, incrementalFrom: undefined, incrementalGroups: undefined, filters: [] };
  const names = (slices: { partitionPath: string; fileId: string; baseInstantTime: string; logFiles: unknown[] }[]) =>
    slices.map((s) => `${s.partitionPath}/${s.fileId}@${s.baseInstantTime}:${s.logFiles.length}`);

  it('snapshot: latest slices of every partition with logs', () => {
    const plan = planRead(city, mor, request);
    expect(names(plan.slices)).toEqual([`city=a/g1-0@${C1}:1`, `city=b/g2-0@${C3}:0`, `city=c/g3-0@${C2}:0`]);
    expect(plan.commitTimeRange).toBeUndefined();
  });

  it('prunes partitions by filters and keeps the filters for the rows', () => {
    const filters = compile(['city', '>=', 'b'], ['id', '=', '3']);
    const plan = planRead(city, mor, { ...request, filters });
    expect(names(plan.slices)).toEqual([`city=b/g2-0@${C3}:0`, `city=c/g3-0@${C2}:0`]);
    expect(plan.filters).toBe(filters);
  });

  it('time travel and read-optimized', () => {
    expect(names(planRead(city, mor, { ...request, asOf: C2 }).slices)).toEqual([`city=a/g1-0@${C1}:1`, `city=b/g2-0@${C1}:0`, `city=c/g3-0@${C2}:0`]);
    expect(names(planRead(city, mor, { ...request, readOptimized: true }).slices)).toEqual([`city=a/g1-0@${C1}:0`, `city=b/g2-0@${C3}:0`, `city=c/g3-0@${C2}:0`]);
  });

  it('incremental: only groups written in the window, with the commit-time range', () => {
    const plan = planRead(city, mor, { ...request, asOf: C3, incrementalFrom: C1, incrementalGroups: new Set([fileGroupKey('city=b', 'g2-0'), fileGroupKey('city=c', 'g3-0')]) });
    expect(names(plan.slices)).toEqual([`city=b/g2-0@${C3}:0`, `city=c/g3-0@${C2}:0`]);
    expect(plan.commitTimeRange).toEqual({ from: C1, to: C3 });
    const open = planRead(city, mor, { ...request, incrementalFrom: C2, incrementalGroups: undefined });
    expect(open.slices).toEqual([]);
    expect(open.commitTimeRange?.from).toBe(C2);
    expect(inCommitRange(C3, open.commitTimeRange ?? { from: '', to: '' })).toBe(true);
  });

  it('incremental over completion times: the written groups as of the end completion time, the commit-time set', () => {
    // Layout 2: C2 requested before C3 but completed after it.
    const v2 = new FileSystemView({
      files: [f(`city=b/g2-0_0-1-2_${C1}.parquet`), f(`city=b/g2-0_0-1-2_${C2}.parquet`), f(`city=c/g3-0_0-1-2_${C3}.parquet`)],
      timeline: Timeline.fromFileNames([`${C1}_20240101000000011.commit`, `${C2}_20240101000000033.commit`, `${C3}_20240101000000022.commit`]),
      timelineLayoutVersion: 2,
      replaced: [],
    });
    const groups = new Set([fileGroupKey('city=b', 'g2-0'), fileGroupKey('city=c', 'g3-0')]);
    const plan = planRead(city, v2, { ...request, completedBy: '20240101000000022', incrementalGroups: groups, incrementalCommitTimes: new Set([C3]) });
    expect(names(plan.slices)).toEqual([`city=b/g2-0@${C1}:0`, `city=c/g3-0@${C3}:0`]);
    expect(plan.commitTimeRange).toBeUndefined();
    expect([...(plan.commitTimes ?? [])]).toEqual([C3]);
  });

  it('inCommitRange is (from, to]', () => {
    const range = { from: C1, to: C3 };
    expect([C1, C2, C3, '20240101000000004'].map((t) => inCommitRange(t, range))).toEqual([false, true, true, false]);
    expect(inCommitRange(null, range)).toBe(false);
    expect(inCommitRange(20240101000000002, range)).toBe(false);
  });
});
