// The query panel: snapshot (as of any commit, read-optimized on merge-on-read) or incremental (from, to]
// reads with column choice and filters; shows the first rows and hands the file slices the read used to the
// layout view.
import { jsonRow, type FileSlice, type Instant, type Table } from '../src/index.js';
import { byId, clearError, isCurrent, nextGeneration, plural, setState, showError } from './page.js';
import { dataTable, show } from './table-view.js';

/** How many rows the page shows. */
export const ROW_LIMIT = 50;
/** The "from" of an incremental read of everything. */
const TIMELINE_START = '00000000000000000';

/** What a query read, for the views around it. */
export interface QueryOutcome {
  slices: FileSlice[];
  /** `snapshot as of latest`, `incremental (start, …]`. */
  what: string;
  /** The instant the read was as of (undefined: latest). */
  asOf: string | undefined;
}

/** `a, b` → columns; empty → undefined (all). */
function parseColumns(text: string): string[] | undefined {
  const cols = text.split(',').map((s) => s.trim()).filter(Boolean);
  return cols.length > 0 ? cols : undefined;
}

/** `a > 1 AND b = 'x'` → filter strings, parsed by the library. */
function parseWhere(text: string): string[] {
  return text.split(/\s+and\s+/i).map((s) => s.trim()).filter(Boolean);
}

export class QueryPanel {
  private readonly ui = {
    form: byId<HTMLFormElement>('query'),
    mode: byId<HTMLSelectElement>('mode'),
    asOf: byId<HTMLSelectElement>('as-of'),
    readOptimized: byId<HTMLInputElement>('read-optimized'),
    from: byId<HTMLSelectElement>('from'),
    to: byId<HTMLSelectElement>('to'),
    columns: byId<HTMLInputElement>('columns'),
    where: byId<HTMLInputElement>('where'),
    metaColumns: byId<HTMLInputElement>('meta-columns'),
    caption: byId('rows-caption'),
    rows: byId('rows'),
  };
  private table: Table | undefined;

  constructor(private readonly onResult: (table: Table, outcome: QueryOutcome) => void) {
    const { ui } = this;
    ui.mode.addEventListener('change', () => {
      this.syncMode();
      void this.run();
    });
    for (const control of [ui.asOf, ui.readOptimized, ui.from, ui.to, ui.metaColumns]) control.addEventListener('change', () => void this.run());
    ui.form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.run();
    });
  }

  /** Reset the controls for a newly opened table. */
  open(t: Table | undefined): void {
    this.table = t;
    if (!t) return;
    const { ui } = this;
    ui.mode.value = 'snapshot';
    ui.readOptimized.checked = false;
    const mor = t.config.tableType === 'MERGE_ON_READ';
    ui.readOptimized.disabled = !mor;
    ui.readOptimized.parentElement?.setAttribute('title', mor ? 'read base files only, skip log files' : 'copy-on-write: same as a snapshot');
    ui.columns.value = '';
    ui.where.value = '';
    this.fillInstants(t);
    this.syncMode();
  }

  /** After a write: the pickers list the new commits and the read goes to the latest. */
  latest(t: Table): void {
    this.fillInstants(t);
    this.ui.asOf.value = '';
    this.ui.to.value = '';
  }

  /** The instant pickers, keeping each selection that still exists. */
  private fillInstants(t: Table): void {
    const commits = t.commits;
    const option = (i: Instant) => new Option(`${i.requestedTime} · ${i.action}`, i.requestedTime);
    const fill = (select: HTMLSelectElement, first: HTMLOptionElement) => {
      const keep = select.value;
      select.replaceChildren(first, ...commits.map(option));
      if (commits.some((i) => i.requestedTime === keep)) select.value = keep;
    };
    fill(this.ui.asOf, new Option('latest', ''));
    fill(this.ui.from, new Option('start of timeline', TIMELINE_START));
    fill(this.ui.to, new Option('latest', ''));
  }

  private syncMode(): void {
    const mode = this.ui.mode.value;
    for (const g of this.ui.form.querySelectorAll<HTMLElement>('.group[data-mode]')) g.hidden = g.dataset.mode !== mode;
  }

  /** Run the query the controls describe; show rows, then hand the slices on. */
  async run(): Promise<void> {
    const t = this.table;
    if (!t) return;
    const { ui } = this;
    const mine = nextGeneration();
    clearError();
    setState('loading', `Reading ${t.storage.label}…`);
    try {
      const incremental = ui.mode.value === 'incremental';
      const asOf = incremental ? ui.to.value || undefined : ui.asOf.value || undefined;
      const readOptimized = !incremental && ui.readOptimized.checked;
      const schema = await t.avroSchema({ asOf });
      let columns = parseColumns(ui.columns.value);
      if (!columns && !ui.metaColumns.checked) {
        // Of the meta columns, only the commit time by default: it is what time travel and incremental reads change.
        columns = schema.fields.map((f) => f.name).filter((n) => n === '_hoodie_commit_time' || !n.startsWith('_hoodie_'));
      }
      const from = ui.from.value || TIMELINE_START;
      const common = { columns, filters: parseWhere(ui.where.value), limit: ROW_LIMIT + 1 };
      const rows: Record<string, unknown>[] = [];
      const iter = incremental ? t.rows({ ...common, from, to: asOf }) : t.rows({ ...common, asOf, readOptimized });
      for await (const row of iter) rows.push(jsonRow(row, schema));
      const slices = await t.fileSlices(incremental ? { from, to: asOf, filters: common.filters } : { asOf, readOptimized, filters: common.filters });
      if (!isCurrent(mine)) return;

      const more = rows.length > ROW_LIMIT;
      const shown = rows.slice(0, ROW_LIMIT);
      const names = columns ?? schema.fields.map((f) => f.name);
      const what = incremental
        ? `incremental (${from === TIMELINE_START ? 'start' : from}, ${asOf ?? 'latest'}]`
        : `${readOptimized ? 'read-optimized' : 'snapshot'} as of ${asOf ?? 'latest'}`;
      ui.caption.textContent = shown.length === 0
        ? `${what}: no rows.`
        : `${what}: ${more ? `first ${ROW_LIMIT}` : shown.length} row${shown.length === 1 ? '' : 's'}${more ? ' (more not shown)' : ''}.`;
      const rowsTable = dataTable(names, shown.map((r) => names.map((n) => r[n] ?? null)), 'data rows');
      rowsTable.id = 'rows-table';
      show(ui.rows, rowsTable);
      this.onResult(t, { slices, what, asOf });
      setState('ready', `Opened ${t.storage.label}: ${t.config.name}, ${plural(t.commits.length, 'commit')}.`);
    } catch (err) {
      if (!isCurrent(mine)) return;
      show(ui.rows);
      ui.caption.textContent = 'The query failed.';
      byId('status').textContent = `Opened ${t.storage.label}; the last query failed.`;
      showError(err);
    }
  }
}
