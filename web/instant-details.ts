// What one instant did: its times and state and, for a completed write (commit, deltacommit, replacecommit),
// its commit metadata — operation, totals and the write stat of every file it wrote — read with
// `table.commitMetadata`.
import type { CommitMetadata, Instant, Table } from '../src/index.js';
import { plural } from './page.js';
import { dataTable, definitions, formatBytes, h, show } from './table-view.js';
import { formatInstant } from './timeline-view.js';

type WriteStat = CommitMetadata['partitionToWriteStats'][string][number];

const WRITES = new Set(['commit', 'deltacommit', 'replacecommit']);

/** Sum of write stats: what the totals line shows. */
export function statTotals(stats: readonly WriteStat[]): { files: number; inserts: number; updates: number; deletes: number; writes: number; bytes: number } {
  const sum = (f: (s: WriteStat) => number) => stats.reduce((n, s) => n + f(s), 0);
  return {
    files: stats.length, inserts: sum((s) => s.numInserts), updates: sum((s) => s.numUpdateWrites), deletes: sum((s) => s.numDeletes),
    writes: sum((s) => s.numWrites), bytes: sum((s) => s.totalWriteBytes),
  };
}

/** Render `instant` of `table` into `target` (loading its commit metadata when it has one). */
export async function renderInstantDetails(target: HTMLElement, table: Table, instant: Instant): Promise<void> {
  const facts: [string, string][] = [
    ['instant', instant.requestedTime],
    ['requested', formatInstant(instant.requestedTime)],
    ['action', instant.action],
    ['state', instant.state.toLowerCase()],
    ['completed', instant.completionTime ? formatInstant(instant.completionTime) : instant.state === 'COMPLETED' ? 'not recorded (timeline layout 1)' : '—'],
    ['file', instant.fileName],
  ];
  target.dataset.instant = instant.requestedTime;
  if (!WRITES.has(instant.action) || instant.state !== 'COMPLETED') {
    show(target, h('dl', {}, definitions(facts)), h('p', { class: 'caption' },
      instant.state !== 'COMPLETED' ? 'Not completed: no commit metadata yet.' : `A ${instant.action}: a table service instant, no write stats.`));
    return;
  }
  const meta = await table.commitMetadata(instant);
  if (target.dataset.instant !== instant.requestedTime) return; // another instant was clicked meanwhile
  const stats = Object.values(meta.partitionToWriteStats).flat();
  const t = statTotals(stats);
  facts.push(
    ['operation', meta.operationType ?? '—'],
    ['compaction', meta.compacted ? 'yes' : 'no'],
    ['totals', `${plural(t.inserts, 'insert')}, ${plural(t.updates, 'update')}, ${plural(t.deletes, 'delete')} · ${plural(t.files, 'file')}, ${formatBytes(t.bytes)}`],
  );
  const replaced = Object.entries(meta.partitionToReplaceFileIds).flatMap(([p, ids]) => ids.map((id) => `${p || '(none)'}/${id}`));
  if (replaced.length > 0) facts.push(['replaced', replaced.join(', ')]);
  const extra = Object.keys(meta.extraMetadata).filter((k) => k !== 'schema');
  if (extra.length > 0) facts.push(['extra metadata', extra.map((k) => `${k}=${meta.extraMetadata[k]}`).join(', ')]);
  const rows = stats.map((s) => [
    s.partitionPath === '' ? '(none)' : s.partitionPath, s.fileId, h('td', { class: 'files', title: s.path ?? '' }, (s.path ?? '').split('/').pop() ?? ''),
    s.numInserts, s.numUpdateWrites, s.numDeletes, s.numWrites, formatBytes(s.totalWriteBytes),
  ]);
  const table_ = dataTable(['partition', 'file id', 'file', 'inserts', 'updates', 'deletes', 'records', 'bytes'], rows, 'data stats');
  table_.id = 'instant-stats';
  show(target, h('dl', {}, definitions(facts)), h('div', { class: 'scroll' }, table_));
}
