// Progress of a CLI write on stderr: a redrawn one-line bar when stderr is a terminal, and in every case one
// summary line when the write is done. Nothing goes to stdout, so piped results stay clean.
import type { WriteProgress } from '../index.js';
import type { CliOutput } from './output.js';

/** Receives a write's progress events and reports them. */
export interface ProgressReporter {
  /** Pass as the write's `onProgress`. */
  update(progress: WriteProgress): void;
  /** The write succeeded: clear the bar and print the summary line. */
  finish(): void;
  /** The write failed: clear the bar (the caller prints the error). */
  fail(): void;
}

/** Options of {@link progressReporter}. */
export interface ProgressOptions {
  /** What is running, first word of every line (`upsert`). */
  label: string;
  /** Print nothing at all. */
  quiet?: boolean;
  /** Clock in milliseconds (tests pass a fake one). */
  now?: () => number;
  /** Least time between two redraws of the bar, in ms (100). */
  redrawMs?: number;
}

const PHASES: readonly WriteProgress['phase'][] = ['prepare', 'index', 'write', 'commit'];
const BAR_WIDTH = 24;

/**
 * A reporter writing to `stderr`. On a TTY (`stderr.isTTY`) a bar `upsert [#####-----] index 10/40 records 1.2s`
 * is redrawn in place (`\r`, erase line), at most every `redrawMs` or on a phase change; at the end it is
 * replaced by the summary line. Elsewhere only the summary line is written, e.g.
 * `upsert: 40 records prepared, 40 looked up, 2 files written, committed in 0.31s`.
 */
export function progressReporter(stderr: CliOutput, options: ProgressOptions): ProgressReporter {
  const now = options.now ?? (() => performance.now());
  const tty = stderr.isTTY === true && !options.quiet;
  const redrawMs = options.redrawMs ?? 100;
  const started = now();
  // Per phase, the largest count seen (a phase's last event may report fewer units than its first).
  const counts = new Map<WriteProgress['phase'], number>();
  let drawnAt = -Infinity;
  let drawnPhase: string | undefined;
  let drawn = false;
  let ended = false;

  const clear = () => {
    if (drawn) stderr.write('\r\x1b[2K');
    drawn = false;
  };
  const seconds = () => `${((now() - started) / 1000).toFixed(2)}s`;

  return {
    update(p) {
      if (ended) return;
      counts.set(p.phase, Math.max(counts.get(p.phase) ?? 0, p.done, p.total));
      if (!tty) return;
      const t = now();
      const complete = p.total > 0 && p.done >= p.total;
      if (p.phase === drawnPhase && !complete && t - drawnAt < redrawMs) return;
      drawnAt = t;
      drawnPhase = p.phase;
      const columns = (stderr as { columns?: unknown }).columns;
      const width = typeof columns === 'number' && columns > 20 ? columns - 1 : 79;
      const line = barLine(options.label, p, seconds());
      stderr.write(`\r\x1b[2K${line.length > width ? line.slice(0, width) : line}`);
      drawn = true;
    },
    finish() {
      if (ended) return;
      ended = true;
      clear();
      if (!options.quiet) stderr.write(`${summaryLine(options.label, counts)} in ${seconds()}\n`);
    },
    fail() {
      if (ended) return;
      ended = true;
      clear();
    },
  };
}

/** The bar of one progress event: overall position across the four phases, then this phase's count. */
function barLine(label: string, p: WriteProgress, elapsed: string): string {
  const index = PHASES.indexOf(p.phase);
  const within = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
  const overall = (Math.max(0, index) + within) / PHASES.length;
  const filled = Math.round(overall * BAR_WIDTH);
  const unit = p.phase === 'write' ? 'files' : p.phase === 'commit' ? '' : 'records';
  const count = p.total > 0 ? ` ${p.done}/${p.total}${unit ? ` ${unit}` : ''}` : '';
  return `${label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${p.phase}${count} ${elapsed}`;
}

/** `upsert: 40 records prepared, 40 looked up, 2 files written, committed` from the counts of each phase. */
function summaryLine(label: string, counts: ReadonlyMap<WriteProgress['phase'], number>): string {
  const parts: string[] = [];
  const prepare = counts.get('prepare');
  if (prepare !== undefined) parts.push(`${prepare} record${prepare === 1 ? '' : 's'} prepared`);
  const index = counts.get('index');
  if (index !== undefined) parts.push(`${index} looked up`);
  const write = counts.get('write');
  if (write !== undefined) parts.push(`${write} file${write === 1 ? '' : 's'} written`);
  if (counts.has('commit')) parts.push('committed');
  return `${label}: ${parts.length > 0 ? parts.join(', ') : 'done'}`;
}
