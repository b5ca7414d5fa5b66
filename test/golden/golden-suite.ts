// The golden suite: every query of every ../shared/fixtures/hudi-rs/expected/*.json, run through the
// public API on the zipped Spark-written table. Shared by the Node and the Chromium test files.
import { beforeAll, describe, expect, test } from 'vitest';
import { jsonRow } from '../../src/schema/json-row.js';
import { openTable, tableStorage, zipStorage, type Table } from '../../src/index.js';
import { compareRows, expectedFields, type ExpectedFile, type ExpectedQuery } from './compare.js';

/** Where the suite gets its files from (fs in Node, fetch in the browser). */
export interface FixtureSource {
  expected: ExpectedFile[];
  readZip(relativePath: string): Promise<Uint8Array>;
}

function label(q: ExpectedQuery): string {
  return q.kind === 'incremental' ? `incremental (${q.from}, ${q.to}]` : `${q.kind} as of ${q.asOf}`;
}

/** Run one expected query through the API (projected to `columns`, default all) and return JSON-encoded rows. */
export async function runQuery(table: Table, q: ExpectedQuery, columns?: string[]): Promise<Record<string, unknown>[]> {
  const range = q.kind === 'incremental' ? { from: q.from as string, to: q.to as string } : { asOf: q.asOf as string, readOptimized: q.kind === 'read_optimized' };
  const opts = columns ? { ...range, columns } : range;
  const schema = await table.avroSchema(q.kind === 'incremental' ? { asOf: q.to as string } : { asOf: q.asOf as string });
  const rows: Record<string, unknown>[] = [];
  for await (const row of table.rows(opts)) rows.push(jsonRow(row, schema));
  return rows;
}

/** Define one describe block per fixture with one test per expected query. */
export function defineGoldenSuite(source: FixtureSource): void {
  test('the fixture expectations are present', () => {
    expect(source.expected.length).toBeGreaterThanOrEqual(14);
  });
  for (const file of source.expected) {
    describe(file.fixture, () => {
      let table: Table;
      beforeAll(async () => {
        table = await openTable(await tableStorage(zipStorage(await source.readZip(file.fixture), { label: file.fixture })));
      });

      test('config and timeline match the expectation', () => {
        expect(table.config.tableType).toBe(file.tableType);
        expect(table.config.version).toBe(file.tableVersion);
        expect(table.config.recordKeyFields).toEqual(file.recordKeyFields);
        expect(table.config.partitionFields).toEqual(file.partitionFields);
        expect(table.config.orderingFields[0] ?? null).toBe(file.orderingField);
        expect(table.config.populateMetaFields).toBe(file.metaFields);
        expect(table.commits.map((i) => i.requestedTime)).toEqual(file.writeInstants);
        const completed = table.timeline.filter((i) => i.state === 'COMPLETED').map((i) => ({ requested: i.requestedTime, action: i.action, completed: i.completionTime ?? null }));
        expect(completed).toEqual(file.completedInstants);
      });

      for (const q of file.queries) {
        test(label(q), async () => {
          const actual = await runQuery(table, q, expectedFields(file.columns, file.metaFields));
          const problem = compareRows(q.rows, actual, file.columns, file.metaFields);
          expect(problem).toBeUndefined();
        });
      }
    });
  }
}
