// Charts where people would rather look than read (drawn with uPlot, the demo's only charting library): the
// records and bytes of each completed write, from its commit metadata's write stats, and the size distribution
// of the files the latest snapshot reads, against the small-file limit below which files take new inserts.
// A chart draws in a task of its own (after the result grid, layout and timeline, which make one task already).
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { FileSlice, Table } from '../src/index.js';
import { statTotals } from './instant-details.js';
import { nextTask } from './next-task.js';
import { formatBytes, h, show } from './table-view.js';

/** Hudi's `hoodie.parquet.small.file.limit` default (100 MiB), which the demo's writes keep. */
export const SMALL_FILE_LIMIT = 100 * 1024 * 1024;
const HEIGHT = 220;
const COLORS = { records: '#2c6bed', bytes: '#e67e22', base: '#2c6bed', log: '#f39c12', limit: '#c0392b' };

/** The chart drawn in each target, destroyed before the next one. */
const drawn = new WeakMap<HTMLElement, uPlot>();
/** The latest draw asked of each target: one still waiting for its task when a newer one is asked is dropped. */
const pending = new WeakMap<HTMLElement, object>();

/** Draw a chart into `target` in the next task (the latest call wins), then run `after` (its data attributes). */
function place(target: HTMLElement, title: string, opts: Omit<uPlot.Options, 'width' | 'height'>, data: uPlot.AlignedData, after?: () => void): void {
  const ticket = {};
  pending.set(target, ticket);
  void nextTask().then(() => {
    if (pending.get(target) !== ticket) return;
    pending.delete(target);
    drawn.get(target)?.destroy();
    const holder = h('div');
    show(target, h('h3', {}, title), holder);
    const width = Math.max(320, (target.clientWidth || 560) - 8);
    drawn.set(target, new uPlot({ ...opts, width, height: HEIGHT }, data, holder));
    after?.();
  });
}

/** Per completed write: records it inserted, updated or deleted (a compaction: rewrote), and bytes it wrote. */
export interface CommitPoint {
  instant: string;
  action: string;
  records: number;
  bytes: number;
}

/** The points of {@link renderCommitChart}: the write stats of each completed write, oldest first. */
export async function commitPoints(t: Table): Promise<CommitPoint[]> {
  const points: CommitPoint[] = [];
  for (const i of t.commits) {
    const meta = await t.commitMetadata(i);
    const s = statTotals(Object.values(meta.partitionToWriteStats).flat());
    // A compaction changes no records: its bar is the records it rewrote into base files.
    points.push({ instant: i.requestedTime, action: meta.compacted ? 'compaction' : i.action, records: meta.compacted ? s.writes : s.inserts + s.updates + s.deletes, bytes: s.bytes });
  }
  return points;
}

/** Bars of records and a line of bytes per completed write, labelled by the instant's time of day. */
export function renderCommitChart(target: HTMLElement, points: readonly CommitPoint[]): void {
  // The data attributes change with the chart drawn (tests wait for them, then look at the canvas).
  const mark = () => {
    target.dataset.commits = String(points.length);
    target.dataset.records = points.map((p) => p.records).join(',');
  };
  if (points.length === 0) {
    pending.delete(target);
    mark();
    drawn.get(target)?.destroy();
    drawn.delete(target);
    show(target, h('h3', {}, 'Records and bytes per commit'), h('p', { class: 'caption' }, 'No commits yet.'));
    return;
  }
  const label = (i: number) => {
    const p = points[i];
    return p ? `${p.instant.slice(8, 10)}:${p.instant.slice(10, 12)}:${p.instant.slice(12, 14)}` : '';
  };
  place(target, 'Records and bytes per commit', {
    scales: { x: { time: false, range: [-0.6, points.length - 0.4] }, bytes: {} },
    axes: [
      { values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? label(s) : '')), incrs: [1, 2, 5, 10, 20, 50] },
      { label: 'records', values: (_u, splits) => splits.map((s) => s.toLocaleString('en-US')), size: 60 },
      { scale: 'bytes', side: 1, label: 'bytes', values: (_u, splits) => splits.map((s) => formatBytes(s)), grid: { show: false }, size: 70 },
    ],
    series: [
      { label: 'commit', value: (_u, v) => (v === null ? '' : `${points[v]?.instant ?? ''} ${points[v]?.action ?? ''}`) },
      { label: 'records', stroke: COLORS.records, fill: `${COLORS.records}99`, paths: uPlot.paths.bars!({ size: [0.6, 48] }), points: { show: false } },
      { label: 'bytes', scale: 'bytes', stroke: COLORS.bytes, width: 2, value: (_u, v) => (v === null ? '' : formatBytes(v)) },
    ],
  }, [points.map((_, i) => i), points.map((p) => p.records), points.map((p) => p.bytes)], mark);
}

/** Files by size, in power-of-two bins: `[exponent, base files, log files]`, from the smallest bin to the limit's. */
export function sizeBins(slices: readonly FileSlice[], limit = SMALL_FILE_LIMIT): { exps: number[]; base: number[]; log: number[] } {
  const bin = (size: number) => Math.floor(Math.log2(Math.max(1, size)));
  const base = slices.flatMap((s) => (s.baseFile ? [bin(s.baseFile.size)] : []));
  const log = slices.flatMap((s) => s.logFiles.map((f) => bin(f.size)));
  const all = [...base, ...log];
  const lo = Math.min(10, ...all);
  const hi = Math.max(bin(limit), ...all);
  const exps = Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  const count = (xs: number[]) => exps.map((e) => xs.filter((x) => x === e).length);
  return { exps, base: count(base), log: count(log) };
}

/** A histogram of base and log file sizes with the small-file limit drawn across it. */
export function renderSizeChart(target: HTMLElement, slices: readonly FileSlice[], limit = SMALL_FILE_LIMIT): void {
  const { exps, base, log } = sizeBins(slices, limit);
  const files = base.reduce((a, b) => a + b, 0) + log.reduce((a, b) => a + b, 0);
  target.dataset.files = String(files);
  const first = exps[0] ?? 0;
  const limitX = Math.log2(limit) - first;
  place(target, `File sizes (${files.toLocaleString('en-US')} files) against the small-file limit (${formatBytes(limit)})`, {
    scales: { x: { time: false, range: [-0.6, exps.length - 0.4] } },
    axes: [
      { values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? formatBytes(2 ** (first + s)) : '')), incrs: [1, 2, 4, 8] },
      { label: 'files', size: 50 },
    ],
    series: [
      { label: 'size', value: (_u, v) => (v === null ? '' : `${formatBytes(2 ** (first + v))}–${formatBytes(2 ** (first + v + 1))}`) },
      { label: 'base files', stroke: COLORS.base, fill: `${COLORS.base}99`, paths: uPlot.paths.bars!({ size: [0.4, 30], align: -1 }), points: { show: false } },
      { label: 'log files', stroke: COLORS.log, fill: `${COLORS.log}99`, paths: uPlot.paths.bars!({ size: [0.4, 30], align: 1 }), points: { show: false } },
    ],
    hooks: {
      draw: [(u) => {
        const x = u.valToPos(limitX, 'x', true);
        const ctx = u.ctx;
        ctx.save();
        ctx.strokeStyle = COLORS.limit;
        ctx.setLineDash([6, 4]);
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.fillStyle = COLORS.limit;
        ctx.font = `${12 * devicePixelRatio}px system-ui, sans-serif`;
        ctx.textAlign = 'right';
        ctx.fillText('small-file limit', x - 6, u.bbox.top + 14 * devicePixelRatio);
        ctx.restore();
      }],
    },
  }, [exps.map((_, i) => i), base.map((n) => n || null), log.map((n) => n || null)]); // empty bins: no bar
}
