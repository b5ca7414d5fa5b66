import { test } from 'vitest';
import { readFileSync } from 'node:fs';
import { readAvroContainer } from '../../src/format/avro/container.js';
test('dump', () => {
  const base = '/tmp/fx/sample_table__mor__parquet__v6_nonpartitioned_rollback/v6_nonpartitioned_rollback/.hoodie/';
  const base2 = '/tmp/fx/sample_table__cow__v6_simplekeygen_nonhivestyle_overwritetable/v6_simplekeygen_nonhivestyle_overwritetable/.hoodie/';
  for (const f of [base + '20250126040936578.rollback.requested', base + '20250126040936578.rollback', base2 + '20240707001303088.replacecommit.requested']) {
    const b = new Uint8Array(readFileSync(f));
    const c = readAvroContainer(b, f);
    console.log('=====', f, b.length);
    console.log(JSON.stringify(Object.keys(c.metadata)));
    console.log(c.metadata['avro.schema']);
    console.log(JSON.stringify(c.records, (k, v) => typeof v === 'bigint' ? `${v}n` : v, 1));
  }
});
