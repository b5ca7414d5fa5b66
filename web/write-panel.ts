// The demo's "Write" panel for tables in OPFS: random trip upserts with a progress bar, random deletes,
// compaction, clean, savepoint / restore and rollback, with a log of what each did and how long it took.
import type { Table, WriteProgress, WriteResult } from '../src/index.js';
import { nextFrame, randomTrips, sample, type TripKey } from './trips.js';
import { dataTable, formatBytes, h, show } from './table-view.js';

/** What the page does around an operation. */
export interface WriteHost {
  /** The operation starts (the page shows it is busy). */
  begin(what: string): void;
  /** It succeeded and changed `table`: re-render timeline, slices and rows. */
  done(table: Table): Promise<void>;
  /** It failed. */
  failed(table: Table, err: unknown): void;
}

/** One line of the write log. */
interface LogEntry {
  operation: string;
  instant: string;
  result?: WriteResult['stats'];
  details: string;
  ms: number;
}

const LOG_LIMIT = 12;
/** Where each write phase sits on the progress bar: [start, end). */
const PHASES: Record<WriteProgress['phase'] | 'generate', [number, number, string]> = {
  generate: [0, 0.15, 'generating trips'],
  prepare: [0.15, 0.2, 'validating and keying records'],
  index: [0.2, 0.35, 'looking up existing keys'],
  write: [0.35, 0.9, 'writing files'],
  commit: [0.9, 1, 'committing'],
};

const el = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

export class WritePanel {
  private readonly ui = {
    section: el('write'),
    readOnly: el('write-readonly'),
    form: el<HTMLFormElement>('write-form'),
    upsertCount: el<HTMLInputElement>('upsert-count'),
    deleteCount: el<HTMLInputElement>('delete-count'),
    delete: el<HTMLButtonElement>('delete'),
    compact: el<HTMLButtonElement>('compact'),
    clean: el<HTMLButtonElement>('clean'),
    savepoint: el<HTMLButtonElement>('savepoint'),
    restoreTo: el<HTMLSelectElement>('restore-to'),
    restore: el<HTMLButtonElement>('restore'),
    rollback: el<HTMLButtonElement>('rollback'),
    progressRow: el('write-progress-row'),
    progress: el<HTMLProgressElement>('write-progress'),
    phase: el('write-phase'),
    recordCount: el('record-count'),
    log: el('write-log'),
  };
  private table: Table | undefined;
  /** Keys (and partitions) of the latest snapshot: what updates and deletes pick from. */
  private keys: TripKey[] = [];
  private log: LogEntry[] = [];
  private running = false;

  constructor(private readonly host: WriteHost) {
    const { ui } = this;
    ui.form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.upsert();
    });
    ui.delete.addEventListener('click', () => void this.deleteRandom());
    ui.compact.addEventListener('click', () => void this.run('compact', async (t) => {
      const results = await t.compact();
      const sum = (f: (r: (typeof results)[number]) => number) => results.reduce((n, r) => n + f(r), 0);
      return {
        instant: results.map((r) => r.instant).join(', ') || '—',
        details: results.length === 0 ? 'nothing to compact'
          : `${sum((r) => r.fileGroups)} file groups, ${sum((r) => r.logFilesCompacted)} log files → ${sum((r) => r.recordsWritten)} records`,
      };
    }));
    ui.clean.addEventListener('click', () => void this.run('clean', async (t) => {
      const r = await t.clean();
      return r ? { instant: r.instant, details: `${r.filesDeleted} files deleted; readable from ${r.earliestInstantToRetain ?? 'any commit'}` }
        : { instant: '—', details: 'nothing to clean' };
    }));
    ui.savepoint.addEventListener('click', () => void this.run('savepoint', async (t) => {
      const r = await t.savepoint();
      return { instant: r.instant, details: `savepointed ${r.instant}` };
    }));
    ui.restore.addEventListener('click', () => void this.run('restore', async (t) => {
      const r = await t.restore(ui.restoreTo.value);
      return { instant: r.instant, details: `restored to ${r.savepoint}; rolled back ${r.rolledBack.length} instant${r.rolledBack.length === 1 ? '' : 's'}` };
    }));
    ui.rollback.addEventListener('click', () => void this.run('rollback', async (t) => {
      const r = await t.rollback();
      return { instant: r.instant, details: `rolled back ${r.rolledBack}; ${r.filesDeleted} files deleted` };
    }));
  }

  /** True while an operation runs. */
  get busy(): boolean {
    return this.running;
  }

  /** Show the panel for `table`: writable, or disabled with the reason it is read-only. */
  async open(table: Table | undefined, readOnlyReason?: string): Promise<void> {
    this.table = readOnlyReason ? undefined : table;
    this.keys = [];
    this.log = [];
    this.ui.readOnly.hidden = !readOnlyReason;
    this.ui.readOnly.textContent = readOnlyReason ?? '';
    this.ui.section.classList.toggle('read-only', Boolean(readOnlyReason));
    this.ui.recordCount.textContent = '';
    show(this.ui.log);
    this.sync();
    if (this.table) await this.loadKeys(this.table);
  }

  /** Enable the controls that make sense now. */
  private sync(): void {
    const { ui } = this;
    const t = this.table;
    const off = !t || this.running;
    for (const c of ui.form.querySelectorAll<HTMLButtonElement | HTMLInputElement | HTMLSelectElement>('button, input, select')) c.disabled = off;
    if (!t) return;
    const mor = t.config.tableType === 'MERGE_ON_READ';
    const savepoints = t.timeline.filter((i) => i.action === 'savepoint' && i.state === 'COMPLETED');
    const selected = ui.restoreTo.value;
    ui.restoreTo.replaceChildren(...savepoints.map((s) => new Option(s.requestedTime, s.requestedTime))
      .reverse());
    if (savepoints.some((s) => s.requestedTime === selected)) ui.restoreTo.value = selected;
    if (savepoints.length === 0) ui.restoreTo.append(new Option('no savepoints', ''));
    ui.compact.disabled ||= !mor;
    ui.compact.title = mor ? 'compact log files into new base files' : 'copy-on-write tables have no log files to compact';
    ui.restoreTo.disabled ||= savepoints.length === 0;
    ui.restore.disabled ||= savepoints.length === 0;
    ui.delete.disabled ||= this.keys.length === 0;
    ui.savepoint.disabled ||= t.commits.length === 0;
    ui.rollback.disabled ||= t.commits.length === 0;
  }

  /** Read every key of the latest snapshot (two columns: cheap with parquet projection). */
  private async loadKeys(t: Table): Promise<void> {
    const keys: TripKey[] = [];
    if (t.commits.length > 0) {
      for await (const row of t.rows({ columns: ['uuid', 'city'] })) keys.push({ uuid: String(row.uuid), city: String(row.city) });
    }
    this.keys = keys;
    this.ui.recordCount.textContent = `${keys.length.toLocaleString('en-US')} record${keys.length === 1 ? '' : 's'} in the latest snapshot.`;
    this.ui.recordCount.dataset.count = String(keys.length);
    this.sync();
  }

  private progress(fraction: number | undefined, text: string): void {
    const { progress, phase, progressRow } = this.ui;
    progressRow.hidden = false;
    if (fraction === undefined) progress.removeAttribute('value');
    else progress.value = fraction;
    phase.textContent = text;
  }

  private onProgress = (p: WriteProgress): void => {
    const [start, end, label] = PHASES[p.phase];
    const within = p.total > 0 ? p.done / p.total : 0;
    const counts = p.total > 0 ? ` ${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')}` : '';
    this.progress(start + (end - start) * within, `${label}${counts}`);
  };

  private count(input: HTMLInputElement, fallback: number): number {
    const n = Math.floor(Number(input.value));
    return Number.isFinite(n) && n > 0 ? Math.min(n, 100_000) : fallback;
  }

  private upsert(): Promise<void> {
    const n = this.count(this.ui.upsertCount, 1000);
    return this.run('upsert', async (t) => {
      const [start, end, label] = PHASES.generate;
      const rows = randomTrips(n, this.keys, (done, total) => this.progress(start + (end - start) * (done / total), `${label} ${done}/${total}`));
      const r = await t.upsert(rows, { onProgress: this.onProgress });
      return { instant: r.instant, result: r.stats, details: `${n} trips` };
    });
  }

  private deleteRandom(): Promise<void> {
    const keys = sample(this.keys, this.count(this.ui.deleteCount, 10)).map((k) => k.uuid);
    return this.run('delete', async (t) => {
      const r = await t.delete(keys, { onProgress: this.onProgress });
      return { instant: r.instant, result: r.stats, details: `${keys.length} random keys` };
    });
  }

  /** Run one operation: busy state, timing, log entry, refreshed views; errors go to the host. */
  private async run(operation: string, op: (t: Table) => Promise<Omit<LogEntry, 'operation' | 'ms'>>): Promise<void> {
    const t = this.table;
    if (!t || this.running) return;
    this.running = true;
    this.sync();
    this.host.begin(operation);
    this.progress(undefined, `${operation}…`);
    const started = performance.now();
    try {
      await t.refresh(); // another tab may have written since
      await nextFrame();
      const entry = await op(t);
      this.log = [{ operation, ms: performance.now() - started, ...entry }, ...this.log].slice(0, LOG_LIMIT);
      this.renderLog();
      await this.loadKeys(t);
    } catch (err) {
      this.host.failed(t, err);
      return;
    } finally {
      this.running = false;
      this.ui.progressRow.hidden = true;
      this.sync();
    }
    await this.host.done(t);
  }

  private renderLog(): void {
    const dash = () => h('td', { class: 'null' }, '—');
    const table = dataTable(['operation', 'instant', 'inserted', 'updated', 'deleted', 'files', 'bytes', 'took', 'details'],
      this.log.map((e) => [
        e.operation, e.instant,
        e.result?.inserted ?? dash(), e.result?.updated ?? dash(), e.result?.deleted ?? dash(), e.result?.filesWritten ?? dash(),
        e.result ? formatBytes(e.result.bytesWritten) : dash(),
        e.ms < 1000 ? `${Math.round(e.ms)} ms` : `${(e.ms / 1000).toFixed(2)} s`,
        e.details,
      ]), 'data log');
    table.id = 'write-log-table';
    show(this.ui.log, table);
  }
}
