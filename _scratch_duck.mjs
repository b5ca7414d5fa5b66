import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run(`CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')`);
await c.run(`COPY (SELECT * FROM (VALUES
  (1, [1,2]::INT[], ['a', NULL]::VARCHAR[], {'a': 1, 'b': {'c': 'x'}}, MAP {'k1': 1, 'k2': NULL}, 'ok'::mood, [[1],[],NULL]::INT[][], [{'x': 1}, NULL]),
  (2, []::INT[], []::VARCHAR[], {'a': NULL, 'b': NULL}, MAP {}::MAP(VARCHAR, INT), 'sad'::mood, [[]]::INT[][], []),
  (3, NULL, [NULL]::VARCHAR[], NULL, NULL, NULL, NULL, NULL),
  (4, [NULL]::INT[], NULL, {'a': 2, 'b': {'c': NULL}}, MAP {'z': NULL}, 'happy'::mood, []::INT[][], [NULL])
) t(id, l, s, st, m, e, ll, ls)) TO '/tmp/pq/d.parquet' (FORMAT parquet)`);
