// Running writes and services on the open table, one at a time: busy state, a progress bar by phase, timing,
// the write log (newest first), and what each one changed on the timeline and in the file layout.
import type { Instant, Table, WriteProgress, WriteResult } from '../src/index.js';
import { byId } from './page.js';
import { dataTable, formatBytes, h, show } from './table-view.js';

/** What the page does around an operation. */
export interface OperationHost {
  /** The operation starts (the page shows it is busy). */
  begin(what: string): void;
  /** It succeeded and changed `table`: re-render timeline, layout and rows. */
  done(table: Table): Promise<void>;
  /** It failed. */
  failed(table: Table, err: unknown): void;
}

/** What an operation reports for the log. */
export interface OperationOutcome {
  instant: string;
  stats?: WriteResult['stats'];
  details: string;
}

/** One line of the write log. */
interface LogEntry extends OperationOutcome {
  operation: string;
  ms: number;
}

/** What an operation changed: instants that appeared and disappeared, files added and removed. */
export interface Change {
  instantsAdded: string[];
  instantsRemoved: string[];
  filesAdded: string[];
  filesRemoved: string[];
}

const LOG_LIMIT = 12;
/** Where each write phase sits on the progress bar: [start, end). */
const PHASES: Record<WriteProgress['phase'], [number, number, string]> = {
  prepare: [0, 0.15, 'validating and keying records'],
  index: [0.15, 0.35, 'looking up existing keys'],
  write: [0.35, 0.9, 'writing files'],
  commit: [0.9, 1, 'committing'],
};

const instantKey = (i: Instant) => `${i.requestedTime} ${i.action} ${i.state.toLowerCase()}`;

/** The files the latest snapshot reads. */
async function layoutFiles(t: Table): Promise<Set<string>> {
  const out = new Set<string>();
  if (t.commits.length === 0) return out;
  for (const s of await t.fileSlices()) {
    if (s.baseFile) out.add(s.baseFile.path);
    for (const l of s.logFiles) out.add(l.path);
  }
  return out;
}

const minus = <T>(a: Set<T>, b: Set<T>) => [...a].filter((x) => !b.has(x));

export class Operations {
  private readonly ui = {
    progressRow: byId('write-progress-row'),
    progress: byId<HTMLProgressElement>('write-progress'),
    phase: byId('write-phase'),
    log: byId('write-log'),
  };
  private log: LogEntry[] = [];
  private running = false;
  /** The writable table operations run on (undefined: none, or read-only). */
  table: Table | undefined;
  /** Called whenever busy state or table changes: panels enable what makes sense. */
  readonly listeners: (() => void)[] = [];
  /** Run after every successful operation, before the views refresh (e.g. the record count). */
  readonly refreshers: ((t: Table) => Promise<void>)[] = [];

  constructor(private readonly host: OperationHost) {}

  /** True while an operation runs. */
  get busy(): boolean {
    return this.running;
  }

  /** Operations now run on `table` (undefined: no writes). The log starts over. */
  open(table: Table | undefined): void {
    this.table = table;
    this.log = [];
    show(this.ui.log);
    this.changed();
  }

  /** Tell the panels to re-sync their controls. */
  changed(): void {
    for (const l of this.listeners) l();
  }

  /** Show progress: a fraction, or undefined for "busy, unknown how long". */
  progress(fraction: number | undefined, text: string): void {
    const { progress, phase, progressRow } = this.ui;
    progressRow.hidden = false;
    if (fraction === undefined) progress.removeAttribute('value');
    else progress.value = fraction;
    phase.textContent = text;
  }

  /** A write's `onProgress`, drawing the bar by phase. */
  readonly onProgress = (p: WriteProgress): void => {
    const [start, end, label] = PHASES[p.phase];
    const within = p.total > 0 ? p.done / p.total : 0;
    const counts = p.total > 0 ? ` ${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')}` : '';
    this.progress(start + (end - start) * within, `${label}${counts}`);
  };

  /**
   * Run one operation (or several steps logged one line each): busy state, timing, log lines, what changed,
   * refreshed views; errors go to the host. Returns the change, or undefined when it failed or could not run.
   */
  async run(operation: string, op: (t: Table) => Promise<OperationOutcome | OperationOutcome[]>): Promise<Change | undefined> {
    const t = this.table;
    if (!t || this.running) return undefined;
    this.running = true;
    this.changed();
    this.host.begin(operation);
    this.progress(undefined, `${operation}…`);
    const started = performance.now();
    let change: Change;
    try {
      await t.refresh(); // another tab may have written since
      const before = { instants: new Set(t.timeline.map(instantKey)), files: await layoutFiles(t) };
      await new Promise((resolve) => setTimeout(resolve, 0)); // paint the busy state
      const outcomes = [await op(t)].flat();
      const ms = performance.now() - started;
      const after = { instants: new Set(t.timeline.map(instantKey)), files: await layoutFiles(t) };
      change = {
        instantsAdded: minus(after.instants, before.instants), instantsRemoved: minus(before.instants, after.instants),
        filesAdded: minus(after.files, before.files), filesRemoved: minus(before.files, after.files),
      };
      this.log = [...outcomes.map((o) => ({ operation, ms: ms / outcomes.length, ...o })).reverse(), ...this.log].slice(0, LOG_LIMIT);
      this.renderLog();
      for (const r of this.refreshers) await r(t);
    } catch (err) {
      this.host.failed(t, err);
      return undefined;
    } finally {
      this.running = false;
      this.ui.progressRow.hidden = true;
      this.changed();
    }
    await this.host.done(t);
    return change;
  }

  private renderLog(): void {
    const dash = () => h('td', { class: 'null' }, '—');
    const table = dataTable(['operation', 'instant', 'inserted', 'updated', 'deleted', 'files', 'bytes', 'took', 'details'],
      this.log.map((e) => [
        e.operation, e.instant,
        e.stats?.inserted ?? dash(), e.stats?.updated ?? dash(), e.stats?.deleted ?? dash(), e.stats?.filesWritten ?? dash(),
        e.stats ? formatBytes(e.stats.bytesWritten) : dash(),
        e.ms < 1000 ? `${Math.round(e.ms)} ms` : `${(e.ms / 1000).toFixed(2)} s`,
        e.details,
      ]), 'data log');
    table.id = 'write-log-table';
    show(this.ui.log, table);
  }
}

/** One line saying what a change did. */
export function describeChange(c: Change): string {
  const parts: string[] = [];
  if (c.instantsAdded.length > 0) parts.push(`timeline + ${c.instantsAdded.join(', ')}`);
  if (c.instantsRemoved.length > 0) parts.push(`timeline − ${c.instantsRemoved.join(', ')}`);
  parts.push(`files read by the latest snapshot: +${c.filesAdded.length} −${c.filesRemoved.length}`);
  return parts.join(' · ');
}
