// The reads every remote-store test compares with a local read of the same table: latest snapshot, time
// travel to every commit, and incremental reads between consecutive commits, as JSON-safe sorted rows.
// No Node built-ins: the Node, browser and workerd (test/edge) tests all run it.
import { jsonRow, type Table } from '../../src/index.js';

/** Every read of a table, JSON-encoded and sorted, keyed by what was read. */
export type TableReads = Record<string, string[]>;

async function rowsOf(table: Table, options: Parameters<Table['rows']>[0], asOf: string | undefined): Promise<string[]> {
  const schema = await table.avroSchema(asOf === undefined ? {} : { asOf });
  const out: string[] = [];
  for await (const row of table.rows(options)) out.push(JSON.stringify(jsonRow(row, schema)));
  return out.sort();
}

/** Snapshot, time travel to each commit and incremental (previous, this] for each commit. */
export async function tableReads(table: Table): Promise<TableReads> {
  const commits = table.commits.map((c) => c.requestedTime);
  const reads: TableReads = { snapshot: await rowsOf(table, {}, undefined) };
  for (const [i, t] of commits.entries()) {
    reads[`asOf ${t}`] = await rowsOf(table, { asOf: t }, t);
    const from = i === 0 ? '00000000000000000' : (commits[i - 1] as string);
    reads[`incremental (${from}, ${t}]`] = await rowsOf(table, { from, to: t }, t);
  }
  return reads;
}
