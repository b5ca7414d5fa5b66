// The schema of an import: one column per file column (its name as the table will call it, its type and
// whether it may be null), inferred from the file and edited by the user before a new table is created;
// for an existing table, the table's own field types. Turns the file's rows into typed rows for the write.
import { LakeletError } from '../src/index.js';
import type { ImportFile } from './import-file.js';
import { avroField, columnTypeOf, convertValue, inferColumn, type ColumnType } from './import-types.js';

/** One column of an import. */
export interface ImportColumn {
  /** The file's column name. */
  source: string;
  /** The table's field name (editable; an Avro name). */
  name: string;
  /** Undefined: passed to the write as read (a table field type the editor does not offer). */
  type: ColumnType | undefined;
  nullable: boolean;
}

const AVRO_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The columns of `file` with inferred types. */
export function inferColumns(file: ImportFile): ImportColumn[] {
  return file.columns.map((c) => ({ source: c, name: c, ...inferColumn(file.rows.map((r) => r[c])) }));
}

/** The columns of `file` typed by the table schema `avroJson` (its JSON form); unknown columns stay untyped. */
export function tableColumns(file: ImportFile, avroJson: { fields: { name: string; type: unknown }[] }): ImportColumn[] {
  return file.columns.map((c) => {
    const field = avroJson.fields.find((f) => f.name === c);
    const typed = field ? columnTypeOf(field.type) : undefined;
    return { source: c, name: c, type: typed?.type, nullable: typed?.nullable ?? true };
  });
}

/** Refuse names that are not Avro names or repeat; `INVALID_ARGUMENT` naming the column. */
export function checkColumns(columns: readonly ImportColumn[]): void {
  if (columns.length === 0) throw new LakeletError('INVALID_ARGUMENT', 'import: the file has no columns', {});
  const seen = new Set<string>();
  for (const c of columns) {
    if (!AVRO_NAME.test(c.name)) {
      throw new LakeletError('INVALID_ARGUMENT', `import: column name ${JSON.stringify(c.name)} is not a valid field name (letters, digits and _, not starting with a digit)`, { field: c.source, value: c.name });
    }
    if (seen.has(c.name)) throw new LakeletError('INVALID_ARGUMENT', `import: two columns are named ${JSON.stringify(c.name)}`, { field: c.source, value: c.name });
    seen.add(c.name);
  }
}

/** The Avro record schema of the edited columns (for `createTable`). */
export function avroSchemaOf(columns: readonly ImportColumn[], recordName: string): { type: 'record'; name: string; fields: Record<string, unknown>[] } {
  checkColumns(columns);
  return { type: 'record', name: recordName, fields: columns.map((c) => avroField(c.name, c.type ?? 'string', c.nullable)) };
}

/**
 * The file's rows as the write takes them: renamed and converted to each column's type. A value that does not
 * convert, or a null in a column that is not nullable, → `INVALID_ARGUMENT` naming the file, line and column.
 */
export function typedRows(file: ImportFile, columns: readonly ImportColumn[]): Record<string, unknown>[] {
  return file.rows.map((row, i) => {
    const line = file.lines[i] ?? i + 1;
    const out: Record<string, unknown> = {};
    for (const c of columns) {
      const raw = row[c.source];
      const at = { path: file.name, line, column: c.source };
      const value = c.type === undefined ? raw ?? null : convertValue(raw, c.type, at);
      if (value === null && !c.nullable) {
        throw new LakeletError('INVALID_ARGUMENT', `${file.name} line ${line}: column ${JSON.stringify(c.source)} is empty, but ${JSON.stringify(c.name)} is not nullable`, { path: file.name, line, field: c.source });
      }
      if (raw !== undefined || value !== null) out[c.name] = value;
    }
    return out;
  });
}
