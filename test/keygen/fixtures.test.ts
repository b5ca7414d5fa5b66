// Key generators against Spark-written fixture tables: recompute every row's `_hoodie_record_key` and
// `_hoodie_partition_path` from its data fields and compare with what Hudi stored.
import { describe, expect, test } from 'vitest';
import { unzipSync } from 'fflate';
import { keyGeneratorClassName, loadKeyGenerator, keyGeneratorOptionsFromConfig, parseKeyGeneratorType } from '../../src/keygen/key-generator.js';
import { createTimestampPartitionFormatter } from '../../src/keygen/timestamp-key-generator.js';
import { timestampOptionsFromProperties } from '../../src/keygen/timestamp-options.js';
import { withoutMetaFields } from '../../src/schema/table-schema.js';
import { openTable, tableStorage, zipStorage } from '../../src/index.js';
import { collect, fixtureBytes } from '../helpers/fixtures.js';

const CASES = [
  { zip: 'sample_table/cow/v6_complexkeygen_hivestyle.zip', type: 'COMPLEX', sampleKey: 'id:1,name:Alice', samplePath: 'byteField=10/shortField=300' },
  { zip: 'sample_table/cow/v6_nonpartitioned.zip', type: 'NON_PARTITION', sampleKey: '1', samplePath: '' },
  { zip: 'sample_table/cow/v9_txns_simple_nometa.zip', type: 'SIMPLE', sampleKey: 'TXN-001', samplePath: 'region=us' },
  { zip: 'sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip', type: 'SIMPLE', sampleKey: '4', samplePath: '30' },
  { zip: 'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip', type: 'TIMESTAMP', sampleKey: 'TXN-001', samplePath: '2024/01/15/10' },
] as const;

async function open(zip: string) {
  return openTable(await tableStorage(zipStorage(fixtureBytes(zip))));
}

describe('key generators reproduce the keys and paths Hudi stored', () => {
  for (const c of CASES) {
    for (const withSchema of [true, false]) {
      test(`${c.zip} (${withSchema ? 'with' : 'without'} schema)`, async () => {
        const table = await open(c.zip);
        const schema = withoutMetaFields(await table.avroSchema());
        const options = keyGeneratorOptionsFromConfig(table.config, withSchema ? schema : undefined);
        expect(options.type).toBe(c.type);
        const keygen = await loadKeyGenerator(options);
        const rows = await collect(table.rows());
        expect(rows.length).toBeGreaterThan(0);
        const keys = new Set<string>();
        const paths = new Set<string>();
        for (const row of rows) {
          expect(keygen.recordKey(row)).toBe(row._hoodie_record_key);
          expect(keygen.partitionPath(row)).toBe(row._hoodie_partition_path);
          keys.add(keygen.recordKey(row));
          paths.add(keygen.partitionPath(row));
        }
        expect(keys).toContain(c.sampleKey);
        expect(paths).toContain(c.samplePath);
      });
    }
  }

  test('the key generator class names round-trip through the table configs', async () => {
    const table = await open('sample_table/cow/v6_complexkeygen_hivestyle.zip');
    expect(table.config.keyGenerator).toBe(keyGeneratorClassName('COMPLEX'));
    expect(parseKeyGeneratorType(table.config.keyGenerator)).toBe('COMPLEX');
    const v9 = await open('sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip');
    expect(v9.config.keyGenerator).toBe('TIMESTAMP');
  });
});

describe('timestamp key generator on v9_timebasedkeygen_nonhivestyle', () => {
  test('ts_str and _hoodie_partition_path agree for every row (zip opened with fflate)', async () => {
    const bytes = fixtureBytes('sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip');
    const entries = unzipSync(bytes);
    const propsName = Object.keys(entries).find((n) => n.endsWith('.hoodie/hoodie.properties') && !n.includes('metadata') && !n.includes('__MACOSX'));
    expect(propsName).toBeDefined();
    const text = new TextDecoder().decode(entries[propsName!]);
    expect(text).toContain("hoodie.keygen.timebased.input.dateformat=yyyy-MM-dd'T'HH\\:mm\\:ss.SSSZ");
    const table = await open('sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip');
    const ts = timestampOptionsFromProperties(table.config.properties);
    expect(ts).toEqual({ timestampType: 'DATE_STRING', inputDateFormat: "yyyy-MM-dd'T'HH:mm:ss.SSSZ", outputDateFormat: 'yyyy/MM/dd/HH' });
    const format = createTimestampPartitionFormatter(ts!);
    const rows = await collect(table.rows());
    const distinct = new Set<string>();
    for (const row of rows) {
      expect(typeof row.ts_str).toBe('string');
      expect(format(row.ts_str)).toBe(row._hoodie_partition_path);
      distinct.add(row._hoodie_partition_path as string);
    }
    expect(distinct.size).toBeGreaterThan(1);
  });
});
