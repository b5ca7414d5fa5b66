// Row output formats of `lakelet query`: JSON lines, CSV (RFC 4180 quoting, nested values as JSON text)
// and an aligned text table (widths fixed from the first rows, long cells truncated with an ellipsis).
import type { OutputSink } from './output.js';

/** The output formats of `lakelet query --format`. */
export const ROW_FORMATS = ['jsonl', 'csv', 'table'] as const;
/** One of {@link ROW_FORMATS}. */
export type RowFormat = (typeof ROW_FORMATS)[number];

/** Writes JSON-encoded rows (from `jsonRow`) in one format into a sink. */
export interface RowWriter {
  /** Add one row (its keys are the output columns, in order). */
  row(row: Record<string, unknown>): void;
  /** Write whatever is still held back (the table format holds its first rows to size the columns). */
  end(): void;
}

/** Create the writer for `format`; `columns` are the output columns (headers even when no row comes). */
export function rowWriter(format: RowFormat, columns: readonly string[], sink: OutputSink): RowWriter {
  switch (format) {
    case 'jsonl': return { row: (r) => sink.push(JSON.stringify(r) + '\n'), end: () => undefined };
    case 'csv': return csvWriter(columns, sink);
    case 'table': return new TableWriter(columns, sink);
  }
}

/** Text of a JSON-encoded value: strings as they are, nested values as JSON, null as `null` (or `nullText`). */
export function cellText(value: unknown, nullText = 'null'): string {
  if (value === null || value === undefined) return nullText;
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Quote a CSV field when it holds a comma, quote, CR or LF (RFC 4180); quotes are doubled. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvWriter(columns: readonly string[], sink: OutputSink): RowWriter {
  sink.push(columns.map(csvField).join(',') + '\n');
  return {
    row: (r) => sink.push(columns.map((c) => csvField(cellText(r[c], ''))).join(',') + '\n'),
    end: () => undefined,
  };
}

/** Widest a table cell gets before it is truncated. */
export const MAX_CELL_WIDTH = 40;
/** How many rows the table format reads before it fixes its column widths. */
const SIZING_ROWS = 1000;

const CONTROL = /[\u0000-\u001f\u007f]/g;

function printable(text: string): string {
  return text.replace(CONTROL, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** Code-point length (so one emoji counts once). */
function width(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Cut `text` to `max` code points, ending in `…` when it was cut. */
export function truncate(text: string, max: number): string {
  if (width(text) <= max) return text;
  return Array.from(text).slice(0, Math.max(0, max - 1)).join('') + '…';
}

function pad(text: string, w: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, w - width(text)));
  return right ? fill + text : text + fill;
}

interface Cell {
  text: string;
  numeric: boolean;
}

class TableWriter implements RowWriter {
  private held: Cell[][] | undefined = [];
  private widths: number[] = [];
  private count = 0;

  constructor(private readonly columns: readonly string[], private readonly sink: OutputSink) {}

  row(r: Record<string, unknown>): void {
    const cells = this.columns.map((c) => ({ text: truncate(printable(cellText(r[c])), MAX_CELL_WIDTH), numeric: typeof r[c] === 'number' }));
    this.count++;
    if (this.held) {
      this.held.push(cells);
      if (this.held.length >= SIZING_ROWS) this.release();
    } else {
      this.line(cells);
    }
  }

  end(): void {
    if (this.held) this.release();
    this.sink.push(`(${this.count} ${this.count === 1 ? 'row' : 'rows'})\n`);
  }

  private release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    const headers = this.columns.map((c) => truncate(printable(c), MAX_CELL_WIDTH));
    this.widths = headers.map((h, i) => Math.max(width(h), ...held.map((cells) => width(cells[i]?.text ?? ''))));
    this.sink.push(headers.map((h, i) => pad(h, this.widths[i] ?? 0, false)).join('  ').trimEnd() + '\n');
    this.sink.push(this.widths.map((w) => '-'.repeat(w)).join('  ') + '\n');
    for (const cells of held) this.line(cells);
  }

  private line(cells: Cell[]): void {
    const parts = cells.map((cell, i) => {
      const w = this.widths[i] ?? 0;
      return pad(truncate(cell.text, w), w, cell.numeric);
    });
    this.sink.push(parts.join('  ').trimEnd() + '\n');
  }
}
