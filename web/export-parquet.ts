// Query results as a parquet file for a download, written with hyparquet-writer (lakelet's own base-file writer
// is internal): one optional column per selected field, typed by the table schema — long INT64, int INT32,
// float/double, boolean, string UTF8, date DATE, timestamps TIMESTAMP_MICROS; anything else as UTF8 text.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { avroSchemaToJson, jsonRow, type AvroRecordSchema } from '../src/index.js';
import { columnTypeOf, type ColumnType } from './import-types.js';

type Element = { name: string; type: 'BOOLEAN' | 'INT32' | 'INT64' | 'FLOAT' | 'DOUBLE' | 'BYTE_ARRAY'; converted_type?: 'UTF8' | 'DATE' | 'TIMESTAMP_MICROS' };

const ELEMENTS: Record<ColumnType, Omit<Element, 'name'>> = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  boolean: { type: 'BOOLEAN' },
  int: { type: 'INT32' },
  long: { type: 'INT64' },
  float: { type: 'FLOAT' },
  double: { type: 'DOUBLE' },
  date: { type: 'INT32', converted_type: 'DATE' },
  timestamp: { type: 'INT64', converted_type: 'TIMESTAMP_MICROS' },
};

/** How one column is written: its parquet element and each value turned into what the writer takes. */
function columnOf(name: string, avroType: unknown): { element: Element; value: (v: unknown, row: Record<string, unknown>) => unknown } {
  const typed = columnTypeOf(avroType)?.type;
  if (typed === 'long') return { element: { name, ...ELEMENTS.long }, value: (v) => (typeof v === 'number' ? BigInt(v) : v) };
  if (typed && typed !== 'string') return { element: { name, ...ELEMENTS[typed] }, value: (v) => v };
  // Strings as they are; decimals, bytes and nested values as their JSON encoding (decimal text, base64, JSON).
  return {
    element: { name, ...ELEMENTS.string },
    value: (v, json) => {
      if (typeof v === 'string' || v === null || v === undefined) return v ?? null;
      const j = json[name];
      return typeof j === 'string' ? j : JSON.stringify(j);
    },
  };
}

/** Parquet bytes of `rows` (lakelet's value model) with the given columns, typed by `schema`. */
export function rowsToParquet(columns: readonly string[], rows: readonly Record<string, unknown>[], schema: AvroRecordSchema): Uint8Array {
  const fields = (avroSchemaToJson(schema) as { fields: { name: string; type: unknown }[] }).fields;
  const specs = columns.map((c) => columnOf(c, fields.find((f) => f.name === c)?.type ?? 'string'));
  const data = specs.map(() => [] as unknown[]);
  for (const row of rows) {
    let json: Record<string, unknown> | undefined;
    specs.forEach((s, i) => {
      const v = row[s.element.name] ?? null;
      const needsJson = v !== null && s.element.converted_type === 'UTF8' && typeof v !== 'string';
      if (needsJson) json ??= jsonRow(row, schema);
      (data[i] as unknown[]).push(v === null ? null : s.value(v, json ?? {}));
    });
  }
  const schemaElements = [
    { name: 'root', num_children: specs.length },
    ...specs.map((s) => ({ ...s.element, repetition_type: 'OPTIONAL' as const })),
  ];
  const buffer = parquetWriteBuffer({
    columnData: specs.map((s, i) => ({ name: s.element.name, data: data[i] as unknown[] })),
    schema: schemaElements,
  } as Parameters<typeof parquetWriteBuffer>[0]);
  return new Uint8Array(buffer);
}
