import { readFileSync } from 'node:fs';
import { it } from 'vitest';
import { bufferFromBytes, readParquetFooter, readParquetRows } from '../../src/format/parquet.js';
it('bench', async () => {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  await c.run(`COPY (SELECT i AS id, 'k' || i AS key, i * 1.5 AS d, range(i % 5)::INT[] AS l, {'v': i, 'w': 'x' || i} AS st FROM range(200000) t(i)) TO '/tmp/pq/bench.parquet' (FORMAT parquet)`);
  const file = bufferFromBytes(new Uint8Array(readFileSync('/tmp/pq/bench.parquet')));
  const footer = await readParquetFooter(file, 'b');
  for (let k = 0; k < 3; k++) {
    let t = performance.now();
    await readParquetRows(file, footer, 'b');
    console.log('all', Math.round(performance.now() - t));
    t = performance.now();
    await readParquetRows(file, footer, 'b', { columns: ['id', 'key', 'd'] });
    console.log('flat', Math.round(performance.now() - t));
  }
}, 120000);
