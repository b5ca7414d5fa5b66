// "Data out": the open table as a `.zip` (every file, or the latest snapshot's only) and the query panel's
// query — its mode, instants, columns and filter, every row rather than the shown page — as CSV or parquet,
// each handed to the browser as a download.
import { LakeletError, type AvroRecordSchema, type Table } from '../src/index.js';
import type { DataHost } from './data-host.js';
import { rowsToCsv } from './export-csv.js';
import { rowsToParquet } from './export-parquet.js';
import { tableZip } from './export-zip.js';
import { byId, clearError, plural, setState, showError } from './page.js';
import { formatBytes } from './table-view.js';

/** The start of the timeline for an incremental read "from the beginning". */
const TIMELINE_START = '00000000000000000';

/** Hand `bytes` to the browser as a download named `name`. */
export function download(name: string, bytes: Uint8Array | string, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The query panel's controls by id, if it has them (else a snapshot of the latest commit). */
const control = <T extends HTMLElement>(id: string) => document.getElementById(id) as T | null;

/** What the query panel asks for: the read's options and the columns it selects. */
async function queryOf(t: Table): Promise<{ read: Parameters<Table['rows']>[0]; columns: string[]; schema: AvroRecordSchema; what: string }> {
  const value = (id: string) => control<HTMLInputElement | HTMLSelectElement>(id)?.value ?? '';
  if (value('mode') === 'changes') throw new LakeletError('UNSUPPORTED', 'export: the change stream is not exported; choose snapshot or incremental in the query panel', { value: 'changes' });
  const incremental = value('mode') === 'incremental';
  const asOf = (incremental ? value('to') : value('as-of')) || undefined;
  const schema = await t.avroSchema({ asOf });
  const typed = value('columns').split(',').map((s) => s.trim()).filter(Boolean);
  const meta = control<HTMLInputElement>('meta-columns')?.checked ?? false;
  const columns = typed.length > 0 ? typed
    : schema.fields.map((f) => f.name).filter((n) => meta || n === '_hoodie_commit_time' || !n.startsWith('_hoodie_'));
  const filters = value('where').split(/\s+and\s+/i).map((s) => s.trim()).filter(Boolean);
  const from = value('from') || TIMELINE_START;
  const read = incremental ? { columns, filters, from, to: asOf }
    : { columns, filters, asOf, readOptimized: control<HTMLInputElement>('read-optimized')?.checked ?? false };
  return { read, columns, schema, what: incremental ? `incremental (${from}, ${asOf ?? 'latest'}]` : `snapshot as of ${asOf ?? 'latest'}` };
}

export class ExportPanel {
  private readonly ui = {
    section: byId('data-out'),
    zip: byId<HTMLButtonElement>('export-zip'),
    snapshot: byId<HTMLInputElement>('export-snapshot'),
    csv: byId<HTMLButtonElement>('export-csv'),
    parquet: byId<HTMLButtonElement>('export-parquet'),
    summary: byId('export-summary'),
  };
  private running = false;

  constructor(private readonly host: DataHost) {
    const { ui } = this;
    ui.zip.addEventListener('click', () => void this.run('zip', (t) => this.zip(t)));
    ui.csv.addEventListener('click', () => void this.run('CSV', (t) => this.rows(t, 'csv')));
    ui.parquet.addEventListener('click', () => void this.run('parquet', (t) => this.rows(t, 'parquet')));
    host.ops.listeners.push(() => this.sync());
  }

  private sync(): void {
    const { ui } = this;
    ui.section.hidden = !this.host.table();
    for (const b of [ui.zip, ui.csv, ui.parquet]) b.disabled = this.running || this.host.ops.busy;
  }

  private async run(what: string, job: (t: Table) => Promise<string>): Promise<void> {
    const t = this.host.table();
    if (!t || this.running || this.host.ops.busy) return;
    this.running = true;
    this.sync();
    clearError();
    setState('loading', `Exporting ${t.config.name} as ${what}…`);
    try {
      this.ui.summary.textContent = await job(t);
      setState('ready', `Exported ${t.config.name} as ${what}.`);
    } catch (err) {
      showError(err);
    } finally {
      this.running = false;
      this.sync();
    }
  }

  private async zip(t: Table): Promise<string> {
    const snapshot = this.ui.snapshot.checked;
    const name = t.config.name;
    const bytes = await tableZip(t, {
      folder: name, snapshot,
      onProgress: (done, total) => { this.ui.summary.textContent = `Reading files: ${done}/${total}…`; },
    });
    download(`${name}${snapshot ? '_snapshot' : ''}.zip`, bytes, 'application/zip');
    return `${name}${snapshot ? ' (latest snapshot)' : ''} as a .zip: ${formatBytes(bytes.length)}. Unzip it and point Spark at the ${name}/ folder.`;
  }

  private async rows(t: Table, format: 'csv' | 'parquet'): Promise<string> {
    const { read, columns, schema, what } = await queryOf(t);
    const rows: Record<string, unknown>[] = [];
    for await (const row of t.rows(read)) rows.push(row);
    const name = `${t.config.name}_query.${format}`;
    if (format === 'csv') download(name, rowsToCsv(columns, rows, schema), 'text/csv');
    else download(name, rowsToParquet(columns, rows, schema), 'application/vnd.apache.parquet');
    this.ui.summary.dataset.rows = String(rows.length);
    return `${name}: ${plural(rows.length, 'row')} of the ${what} query.`;
  }
}
