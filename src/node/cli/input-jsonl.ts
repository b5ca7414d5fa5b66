// JSON lines input of the CLI's write commands: one object per line, numbers exact, typed by the table schema.
import type { AvroRecordSchema } from '../index.js';
import { JsonNumber, parseJson, typedJson } from './input-json.js';
import { invalid, isMetaField, type InputRows } from './input-rows.js';

/**
 * Parse JSON lines: one object per line, blank lines skipped. Numbers are exact: integers beyond 2^53 become
 * bigint, and with a schema values are typed by {@link typedJson}. A line that is not a JSON object →
 * `INVALID_ARGUMENT` naming the file and line.
 */
export function parseJsonLines(text: string, source: string, schema?: AvroRecordSchema): InputRows {
  const rows: Record<string, unknown>[] = [];
  const lines: number[] = [];
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let start = 0;
  let lineNo = 0;
  while (start <= body.length) {
    let end = body.indexOf('\n', start);
    if (end < 0) end = body.length;
    lineNo++;
    const line = body.slice(start, end);
    start = end + 1;
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = parseJson(line);
    } catch (err) {
      throw invalid(`${source} line ${lineNo}: invalid JSON (${(err as Error).message})`, { path: source, line: lineNo });
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw invalid(`${source} line ${lineNo}: expected a JSON object, got ${Array.isArray(parsed) ? 'an array' : parsed instanceof JsonNumber ? 'a number' : parsed === null ? 'null' : `a ${typeof parsed}`}`, { path: source, line: lineNo });
    }
    const row: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
      if (isMetaField(k)) continue;
      const type = schema ? schema.fields.find((f) => f.name === k)?.type : undefined;
      Object.defineProperty(row, k, { value: typedJson(v, type), enumerable: true, writable: true, configurable: true });
    }
    rows.push(row);
    lines.push(lineNo);
  }
  return { rows, lines };
}
