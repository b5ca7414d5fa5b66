// CSV text for the demo's import (RFC 4180): a header row, `,` between cells, `"` quoting with doubled quotes
// inside, LF or CRLF line ends, a UTF-8 byte-order mark ignored, blank lines skipped. An unquoted empty cell
// is null; a quoted one (`""`) is the empty string.
import { LakeletError } from '../src/index.js';

/** A parsed CSV file: its column names and, per record, its cells and the line the record starts on. */
export interface CsvTable {
  header: string[];
  records: { cells: (string | null)[]; line: number }[];
}

const invalid = (source: string, line: number, message: string) =>
  new LakeletError('INVALID_ARGUMENT', `${source} line ${line}: ${message}`, { path: source, line });

/** Split `text` into records of cells (no header handling). */
function records(text: string, source: string): { cells: (string | null)[]; line: number }[] {
  const out: { cells: (string | null)[]; line: number }[] = [];
  let cells: (string | null)[] = [];
  let cell = '';
  let quoted = false;
  let inQuotes = false;
  let line = 1;
  let start = 1;
  let quoteLine = 1;
  const endCell = () => {
    cells.push(quoted || cell !== '' ? cell : null);
    cell = '';
    quoted = false;
  };
  const endRecord = () => {
    endCell();
    if (!(cells.length === 1 && cells[0] === null)) out.push({ cells, line: start });
    cells = [];
  };
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else {
          inQuotes = false;
          const next = text[i + 1];
          if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') throw invalid(source, line, `unexpected ${JSON.stringify(next)} after a quoted cell`);
        }
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"') {
      if (cell !== '') throw invalid(source, line, 'a quote inside an unquoted cell (quote the whole cell and double the quote)');
      inQuotes = true;
      quoted = true;
      quoteLine = line;
    } else if (ch === ',') {
      endCell();
    } else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else {
      cell += ch;
    }
  }
  if (inQuotes) throw invalid(source, quoteLine, 'unterminated quoted cell');
  if (cell !== '' || quoted || cells.length > 0) endRecord();
  return out;
}

/**
 * Parse CSV text. The first record is the header: its names must be non-empty and distinct; every record must
 * have as many cells as the header. Errors are `INVALID_ARGUMENT` naming `source` and the line.
 */
export function parseCsv(text: string, source: string): CsvTable {
  const all = records(text, source);
  const first = all.shift();
  if (!first) throw new LakeletError('INVALID_ARGUMENT', `${source} is empty (a CSV file needs a header row)`, { path: source });
  const header = first.cells.map((c) => c ?? '');
  const seen = new Set<string>();
  for (const name of header) {
    if (name === '') throw invalid(source, first.line, 'the header has an empty column name');
    if (seen.has(name)) throw invalid(source, first.line, `the header names column ${JSON.stringify(name)} twice`);
    seen.add(name);
  }
  for (const r of all) {
    if (r.cells.length !== header.length) throw invalid(source, r.line, `${r.cells.length} cells, but the header has ${header.length}`);
  }
  return { header, records: all };
}
