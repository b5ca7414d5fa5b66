import { test } from 'vitest';
import { avroSchemaToJson } from "../../src/format/avro/schema.js";
import { openFixture, collect } from '../helpers/fixtures.js';
for (const z of ['v6_complexkeygen_hivestyle','v6_nonpartitioned','v9_txns_simple_nometa','v6_simplekeygen_nonhivestyle_overwritetable','v9_timebasedkeygen_nonhivestyle']) {
  test(z, async () => {
    const t = await openFixture(`sample_table/cow/${z}.zip`);
    const rows = await collect(t.rows());
    console.log(z, [...t.config.properties].filter(([k]) => /key|partition|timebased/.test(k)));
    console.log(JSON.stringify(avroSchemaToJson(await t.avroSchema()), (_k, v) => typeof v === 'bigint' ? v.toString() + 'n' : v).slice(0, 3000));
    console.log(rows.slice(0, 3).map(r => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? v + 'n' : v instanceof Uint8Array ? 'bytes' : v]))));
  });
}
