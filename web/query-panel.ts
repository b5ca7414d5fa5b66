// The query panel: snapshot (as of any commit — a select and a time-travel slider — read-optimized on
// merge-on-read), incremental (from, to] and the change stream (table.changes: op, ts_ms, before, after), with
// column choice and filters; the rows stream into a virtualized grid, and the file slices the read used go
// to the layout view.
import { jsonRow, type AvroRecordSchema, type FileSlice, type Table } from '../src/index.js';
import { byId, clearError, isCurrent, nextGeneration, plural, setState, showError } from './page.js';
import { ColumnarRows, ResultGrid } from './query-grid.js';
import { InstantPickers, TIMELINE_START } from './query-instants.js';

/** The most rows one query keeps (the grid scrolls through all of them). */
export const ROW_LIMIT = 200_000;
/** Rows between two redraws of the grid while a read streams in. */
const REDRAW_EVERY = 5000;

/** What a query read, for the views around it. */
export interface QueryOutcome {
  slices: FileSlice[];
  /** `snapshot as of latest`, `incremental (start, …]`. */
  what: string;
  /** The instant the read was as of (undefined: latest). */
  asOf: string | undefined;
}

type Mode = 'snapshot' | 'incremental' | 'changes';

/** `a, b` → columns; empty → undefined (all). */
function parseColumns(text: string): string[] | undefined {
  const cols = text.split(',').map((s) => s.trim()).filter(Boolean);
  return cols.length > 0 ? cols : undefined;
}

/** `a > 1 AND b = 'x'` → filter strings (`field op value`), parsed by the library into its filter triples. */
function parseWhere(text: string): string[] {
  return text.split(/\s+and\s+/i).map((s) => s.trim()).filter(Boolean);
}

/** Only the named columns of a change image (all when none are named). */
function project(image: Record<string, unknown> | null, columns: string[] | undefined, schema: AvroRecordSchema): Record<string, unknown> | null {
  if (!image) return null;
  const row = jsonRow(image, schema);
  return columns ? Object.fromEntries(columns.filter((c) => c in row).map((c) => [c, row[c]])) : row;
}

export class QueryPanel {
  private readonly ui = {
    form: byId<HTMLFormElement>('query'),
    mode: byId<HTMLSelectElement>('mode'),
    readOptimized: byId<HTMLInputElement>('read-optimized'),
    columns: byId<HTMLInputElement>('columns'),
    where: byId<HTMLInputElement>('where'),
    metaColumns: byId<HTMLInputElement>('meta-columns'),
    caption: byId('rows-caption'),
    rows: byId('rows'),
  };
  private readonly instants = new InstantPickers(() => void this.run());
  private table: Table | undefined;
  /** The rows of the last query (the tests and the grid read them). */
  result: ColumnarRows | undefined;

  constructor(private readonly onResult: (table: Table, outcome: QueryOutcome) => void) {
    const { ui } = this;
    ui.mode.addEventListener('change', () => {
      this.syncMode();
      void this.run();
    });
    const { asOf, from, to } = this.instants.ui;
    for (const control of [asOf, ui.readOptimized, from, to, ui.metaColumns]) control.addEventListener('change', () => void this.run());
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
    this.instants.fill(t);
    this.syncMode();
  }

  /** After a write: the pickers list the new commits and the read goes to the latest. */
  latest(t: Table): void {
    this.instants.fill(t);
    this.instants.latest();
  }

  private get mode(): Mode {
    const m = this.ui.mode.value;
    return m === 'incremental' || m === 'changes' ? m : 'snapshot';
  }

  private syncMode(): void {
    const mode = this.mode;
    for (const g of this.ui.form.querySelectorAll<HTMLElement>('.group[data-mode]')) g.hidden = !(g.dataset.mode ?? '').split(' ').includes(mode);
    this.ui.where.disabled = mode === 'changes';
    this.ui.where.title = mode === 'changes' ? 'the change stream is not filtered' : '';
  }

  /** Run the query the controls describe; stream the rows into the grid, then hand the slices on. */
  async run(): Promise<void> {
    const t = this.table;
    if (!t) return;
    const { ui } = this;
    const mine = nextGeneration();
    clearError();
    setState('loading', `Reading ${t.storage.label}…`);
    try {
      const mode = this.mode;
      const { from, to } = this.instants.window;
      const asOf = mode === 'snapshot' ? this.instants.asOf : to;
      const readOptimized = mode === 'snapshot' && ui.readOptimized.checked;
      const schema = await t.avroSchema({ asOf });
      let columns = parseColumns(ui.columns.value);
      if (!columns && !ui.metaColumns.checked && mode !== 'changes') {
        // Of the meta columns, only the commit time by default: it is what time travel and incremental reads change.
        columns = schema.fields.map((f) => f.name).filter((n) => n === '_hoodie_commit_time' || !n.startsWith('_hoodie_'));
      }
      const filters = mode === 'changes' ? [] : parseWhere(ui.where.value);
      const range = `(${from === TIMELINE_START ? 'start' : from}, ${to ?? 'latest'}]`;
      const what = mode === 'changes' ? `changes ${range}` : mode === 'incremental' ? `incremental ${range}`
        : `${readOptimized ? 'read-optimized' : 'snapshot'} as of ${asOf ?? 'latest'}`;

      const rows = new ColumnarRows(mode === 'changes' ? ['op', 'ts_ms', 'commit_time', 'before', 'after'] : columns ?? schema.fields.map((f) => f.name));
      const grid = new ResultGrid(ui.rows, rows);
      this.result = rows;
      const progress = () => {
        ui.caption.textContent = `${what}: ${plural(rows.length, 'row')} so far…`;
        grid.resize();
      };
      if (mode === 'changes') {
        for (const c of await t.changes({ from, to })) {
          rows.push({ op: c.op, ts_ms: c.ts_ms, commit_time: c.commitTime, before: project(c.before, columns, schema), after: project(c.after, columns, schema) });
        }
      } else {
        const common = { columns, filters, limit: ROW_LIMIT + 1 };
        const iter = mode === 'incremental' ? t.rows({ ...common, from, to }) : t.rows({ ...common, asOf, readOptimized });
        for await (const row of iter) {
          if (!isCurrent(mine)) return;
          rows.push(jsonRow(row, schema));
          if (rows.length % REDRAW_EVERY === 0) progress();
        }
      }
      const slices = await t.fileSlices(mode === 'snapshot' ? { asOf, readOptimized, filters } : { from, to, filters });
      if (!isCurrent(mine)) return;

      const more = rows.length > ROW_LIMIT;
      ui.caption.dataset.count = String(Math.min(rows.length, ROW_LIMIT));
      ui.caption.textContent = rows.length === 0
        ? `${what}: no rows.`
        : `${what}: ${more ? `first ${plural(ROW_LIMIT, 'row')} (more not kept)` : plural(rows.length, 'row')}.`;
      grid.resize();
      this.onResult(t, { slices, what, asOf });
      setState('ready', `Opened ${t.storage.label}: ${t.config.name}, ${plural(t.commits.length, 'commit')}.`);
    } catch (err) {
      if (!isCurrent(mine)) return;
      ui.rows.replaceChildren();
      delete ui.caption.dataset.count;
      ui.caption.textContent = 'The query failed.';
      byId('status').textContent = `Opened ${t.storage.label}; the last query failed.`;
      showError(err);
    }
  }
}
