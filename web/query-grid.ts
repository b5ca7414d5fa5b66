// The query result grid: the rows kept columnar (one array of JSON values per column) and drawn virtualized —
// only the rows in view are in the DOM, so 100,000 rows scroll as smoothly as 100. A sticky table shows the
// window; a spacer below it gives the scroll container the height of every row.
import { h, valueCell } from './table-view.js';

/** Height of one body row in px (style.css `.grid-view td` keeps every row this tall). */
export const ROW_HEIGHT = 24;
/** Rows in view at once. */
export const VIEW_ROWS = 16;

/** Rows kept by column: `values[c][r]` is row r of column c, as JSON-encoded values. */
export class ColumnarRows {
  readonly values: unknown[][];
  length = 0;

  constructor(readonly columns: readonly string[]) {
    this.values = columns.map(() => []);
  }

  /** Append one row (an object keyed by column name). */
  push(row: Record<string, unknown>): void {
    for (let c = 0; c < this.columns.length; c++) this.values[c]!.push(row[this.columns[c]!] ?? null);
    this.length++;
  }

  /** Row `r` as an object (what the tests and CSV-like views read). */
  row(r: number): Record<string, unknown> {
    return Object.fromEntries(this.columns.map((c, i) => [c, this.values[i]![r]]));
  }
}

/**
 * The rows to draw when the container is scrolled `scrollTop` of `maxScroll` px: [first, end) of `total`, at
 * most `viewRows` of them; the end of the scroll range shows the last rows.
 */
export function visibleRange(scrollTop: number, maxScroll: number, total: number, viewRows = VIEW_ROWS): [number, number] {
  const hidden = Math.max(0, total - viewRows);
  const fraction = maxScroll > 0 ? Math.min(1, Math.max(0, scrollTop / maxScroll)) : 0;
  const first = Math.round(fraction * hidden);
  return [first, Math.min(total, first + viewRows)];
}

/** A virtualized grid over {@link ColumnarRows}, drawn into a scroll container. */
export class ResultGrid {
  private readonly table: HTMLTableElement;
  private readonly body: HTMLTableSectionElement;
  private readonly spacer: HTMLDivElement;
  private readonly viewport: HTMLDivElement;
  private drawn: [number, number] = [-1, -1];
  private frame = 0;

  constructor(target: HTMLElement, private readonly rows: ColumnarRows) {
    const head = h('thead', {}, h('tr', {}, ...rows.columns.map((c) => h('th', { scope: 'col' }, c))));
    this.body = h('tbody');
    this.table = h('table', { class: 'data rows grid-table', id: 'rows-table' }, head, this.body);
    this.spacer = h('div', { class: 'grid-spacer' });
    this.viewport = h('div', { class: 'grid-view', id: 'rows-grid', tabindex: '0' }, this.table, this.spacer);
    this.viewport.addEventListener('scroll', () => {
      if (this.frame) return;
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.draw();
      });
    }, { passive: true });
    target.replaceChildren(this.viewport);
    this.resize();
  }

  /** The rows grew (streaming in): update the scroll height and, if in view, the rows. */
  resize(): void {
    const hidden = Math.max(0, this.rows.length - VIEW_ROWS);
    this.spacer.style.height = `${hidden * ROW_HEIGHT}px`;
    this.viewport.dataset.total = String(this.rows.length);
    // Rows are only appended: a full window drawn before still shows the same rows if its range is unchanged
    // (draw() compares), so only a window short of rows is drawn again.
    if (this.drawn[1] - this.drawn[0] < VIEW_ROWS) this.drawn = [-1, -1];
    this.draw();
  }

  /** Draw the rows under the current scroll offset (nothing when they are already drawn). */
  draw(): void {
    const v = this.viewport;
    const range = visibleRange(v.scrollTop, v.scrollHeight - v.clientHeight, this.rows.length);
    if (range[0] === this.drawn[0] && range[1] === this.drawn[1]) return;
    this.drawn = range;
    const trs: HTMLTableRowElement[] = [];
    for (let r = range[0]; r < range[1]; r++) {
      const cells = this.rows.values.map((col) => valueCell(col[r]));
      trs.push(h('tr', { 'data-row': String(r) }, ...cells));
    }
    this.body.replaceChildren(...trs);
    this.viewport.dataset.first = String(range[0]);
  }
}
