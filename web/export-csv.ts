// Query results as CSV for a download (RFC 4180, the format the import reads back): a header row, values
// JSON-encoded by the table schema (long as a number when safe, timestamps ISO-8601, binary base64), null as
// an empty cell and the empty string as `""`, nested values as JSON text.
import { jsonRow, type AvroRecordSchema } from '../src/index.js';

/** One CSV cell: quoted when it must be (separator, quote, line break, leading/trailing space, or empty text). */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text === '' || /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV text of `rows` (lakelet's value model) with the given columns, encoded by `schema`. */
export function rowsToCsv(columns: readonly string[], rows: Iterable<Record<string, unknown>>, schema: AvroRecordSchema): string {
  const lines = [columns.map(csvCell).join(',')];
  for (const row of rows) {
    const json = jsonRow(row, schema);
    lines.push(columns.map((c) => csvCell(json[c])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
