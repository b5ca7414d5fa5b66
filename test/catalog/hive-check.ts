// Checks a first (full) Hive sync of a table against the table itself: the statements are parsed
// (hive-statements.ts) and every column, type, partition and property compared with what the table's public
// API says — its schema, config, file slices and commits — with Hudi's Avro→Hive mapping written out here.
import { expect } from 'vitest';
import type { Table } from '../../src/index.js';
import { parseHiveStatement, type ParsedStatement } from './hive-statements.js';

type Avro = { type: string; [k: string]: unknown };

const nonNull = (s: Avro): Avro => {
  if (s.type !== 'union') return s;
  const b = (s.branches as Avro[]).filter((x) => x.type !== 'null');
  return b.length === 1 ? (b[0] as Avro) : s;
};
const logical = (s: Avro) => (s.logicalType as { name?: string; precision?: number; scale?: number } | undefined);

/** Hudi's HiveSchemaUtil mapping, normalised like the parser (timestamps as bigint: support_timestamp off). */
export function expectedHiveType(schema: Avro): string {
  const s = nonNull(schema);
  const l = logical(s);
  switch (s.type) {
    case 'int': return l?.name === 'date' ? 'date' : 'int';
    case 'long': return 'bigint';
    case 'float': case 'double': case 'boolean': return s.type;
    case 'string': return l?.name === 'uuid' ? 'binary' : 'string';
    case 'enum': return 'string';
    case 'bytes': case 'fixed': return l?.name === 'decimal' ? `decimal(${l.precision},${l.scale})` : 'binary';
    case 'array': return `array<${expectedHiveType(s.items as Avro)}>`;
    case 'map': return `map<string,${expectedHiveType(s.values as Avro)}>`;
    case 'record': return `struct<${(s.fields as { name: string; type: Avro }[]).map((f) => `${f.name}:${expectedHiveType(f.type)}`).join(',')}>`;
    default: throw new Error(`no Hive type for ${s.type}`);
  }
}

/** The partition values of a path as Hudi's inferred extractor gives them. */
export function expectedValues(path: string, fields: readonly string[], hiveStyle: boolean): string[] {
  if (fields.length === 1 && !hiveStyle) return [path];
  return path.split('/').map((s) => (hiveStyle ? s.slice(s.indexOf('=') + 1) : s));
}

/** Parse every statement (a statement that does not parse fails the test). */
export function parseAll(statements: readonly string[]): ParsedStatement[] {
  return statements.map((s) => parseHiveStatement(s));
}

/**
 * Check the statements of a first sync of `table` (`database`, `basePath`, Hive name `name`): per Hive table
 * one CREATE, the ADDs of every partition of its latest snapshot, and the `last_commit_time_sync` property.
 */
export async function checkFullSync(table: Table, statements: readonly string[], o: { database: string; basePath: string; name?: string }): Promise<void> {
  const parsed = parseAll(statements);
  const config = table.config;
  const name = o.name ?? config.name;
  const expectedTables = config.tableType === 'MERGE_ON_READ' ? [`${name}_ro`, `${name}_rt`] : [name];
  const schema = await table.avroSchema();
  const fields = schema.fields as unknown as { name: string; type: Avro }[];
  const partitionFields = config.partitionFields;
  // Hudi lists the partitions of the table's files (a partition whose groups an insert_overwrite_table replaced
  // stays until cleaned): every folder holding a data file, outside .hoodie.
  const files = (await table.storage.list('', { recursive: true })).map((f) => f.path).filter((f) => !f.startsWith('.hoodie/') && /\.(parquet|log\.\d+(_[\d-]+)?)$/.test(f));
  const partitions = [...new Set(files.map((f) => (f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '')))].sort();
  const latest = table.commits[table.commits.length - 1];

  expect([...new Set(parsed.map((p) => p.table))]).toEqual(expectedTables);
  for (const [i, hiveTable] of expectedTables.entries()) {
    const mine = parsed.filter((p) => p.table === hiveTable);
    expect(mine.every((p) => p.db === o.database)).toBe(true);
    const create = mine[0];
    if (create?.kind !== 'create') throw new Error(`the first statement of ${hiveTable} is not a CREATE`);
    expect(create.external).toBe(true);
    // Columns: the schema's fields in order, partition fields out, each type as Hudi maps it.
    expect(create.columns).toEqual(fields.filter((f) => !partitionFields.includes(f.name)).map((f) => ({ name: f.name, type: expectedHiveType(f.type) })));
    expect(create.partitionColumns).toEqual(partitionFields.map((p) => {
      const f = fields.find((x) => x.name === p);
      return { name: p, type: f ? expectedHiveType(f.type) : 'string' };
    }));
    expect(create.serde).toBe('org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe');
    expect(create.outputFormat).toBe('org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat');
    const realtime = config.tableType === 'MERGE_ON_READ' && i === 1;
    expect(create.inputFormat).toBe(realtime ? 'org.apache.hudi.hadoop.realtime.HoodieParquetRealtimeInputFormat' : 'org.apache.hudi.hadoop.HoodieParquetInputFormat');
    expect(create.location).toBe(o.basePath);
    expect(create.serdeProperties).toEqual({ path: o.basePath, 'hoodie.query.as.ro.table': String(config.tableType === 'MERGE_ON_READ' && i === 0) });
    checkSparkProperties(create.tableProperties, fields, partitionFields);

    // Partitions: every partition of the snapshot, with its values and location.
    const adds = mine.filter((p) => p.kind === 'add');
    if (partitionFields.length === 0) expect(adds).toEqual([]);
    else {
      const added = adds.flatMap((a) => a.partitions);
      expect(added.map((a) => a.location)).toEqual(partitions.map((p) => `${o.basePath}/${p}`));
      expect(added.map((a) => a.spec)).toEqual(partitions.map((p) => Object.fromEntries(partitionFields.map((f, k) => [f, expectedValues(p, partitionFields, config.hiveStylePartitioning)[k]]))));
    }
    const last = mine[mine.length - 1];
    expect(last?.kind).toBe('set-properties');
    if (last?.kind === 'set-properties') {
      expect(last.properties.last_commit_time_sync).toBe(latest?.requestedTime);
      expect(last.properties.last_commit_completion_time_sync).toBe(latest?.completionTime);
    }
    expect(mine.length).toBe(2 + adds.length);
  }
}

/** The `spark.sql.sources.*` properties: provider, the schema parts (≤ 4000 characters), the partition columns. */
export function checkSparkProperties(props: Record<string, string>, fields: readonly { name: string; type: Avro }[], partitionFields: readonly string[]): void {
  expect(props['spark.sql.sources.provider']).toBe('hudi');
  const parts = Number(props['spark.sql.sources.schema.numParts']);
  const texts = Array.from({ length: parts }, (_, i) => props[`spark.sql.sources.schema.part.${i}`] as string);
  expect(texts.every((t) => typeof t === 'string' && t.length > 0 && t.length <= 4000)).toBe(true);
  expect(texts.slice(0, -1).every((t) => t.length === 4000)).toBe(true);
  const spark = JSON.parse(texts.join('')) as { type: string; fields: { name: string; nullable: boolean }[] };
  expect(spark.type).toBe('struct');
  const order = [...fields.filter((f) => !partitionFields.includes(f.name)), ...fields.filter((f) => partitionFields.includes(f.name))];
  expect(spark.fields.map((f) => f.name)).toEqual(order.map((f) => f.name));
  expect(spark.fields.map((f) => f.nullable)).toEqual(order.map((f) => f.type.type === 'union' && (f.type.branches as Avro[]).some((b) => b.type === 'null')));
  if (partitionFields.length === 0) expect(props['spark.sql.sources.schema.numPartCols']).toBeUndefined();
  else {
    expect(props['spark.sql.sources.schema.numPartCols']).toBe(String(partitionFields.length));
    partitionFields.forEach((f, i) => expect(props[`spark.sql.sources.schema.partCol.${i}`]).toBe(f));
  }
}
