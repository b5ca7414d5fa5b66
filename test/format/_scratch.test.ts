import { readFileSync } from 'node:fs';
import { it } from 'vitest';
import { bufferFromBytes, readParquetFooter, readParquetRows } from '../../src/format/parquet.js';
it('dump', async () => {
  const file = bufferFromBytes(new Uint8Array(readFileSync(process.env.PQ ?? '/tmp/pq/d.parquet')));
  const footer = await readParquetFooter(file, 'x');
  console.dir(footer.metadata.schema.map(e => [e.name, e.repetition_type, e.type, e.converted_type, e.logical_type?.type, e.num_children]), { depth: 5 });
  console.dir(await readParquetRows(file, footer, 'x'), { depth: 10 });
});
