// The file layout as a picture: partitions → file groups → file slices, each slice a bar of its base file and
// log files with widths by bytes (one scale for the whole table), so big files, many small ones and growing
// log chains show at a glance; given the table, what its next compaction and clean would touch is marked on it
// (layout-plans.ts). The same slices also as a table.
import type { FileSlice, Table } from '../src/index.js';
import { forgetLayoutPlans, showLayoutPlans } from './layout-plans.js';
import { plural } from './page.js';
import { dataTable, formatBytes, h, show } from './table-view.js';

/** Widest bar (px): the table's largest slice. */
const BAR = 520;
/** Narrowest file (px), so tiny files stay visible and clickable. */
const MIN_FILE = 4;

const sliceBytes = (s: FileSlice) => (s.baseFile?.size ?? 0) + s.logFiles.reduce((n, l) => n + l.size, 0);

/** Slices by partition (sorted), then by file id. */
export function byPartition(slices: readonly FileSlice[]): Map<string, FileSlice[]> {
  const out = new Map<string, FileSlice[]>();
  for (const s of [...slices].sort((a, b) => a.partitionPath.localeCompare(b.partitionPath) || a.fileId.localeCompare(b.fileId))) {
    const list = out.get(s.partitionPath) ?? [];
    list.push(s);
    out.set(s.partitionPath, list);
  }
  return out;
}

function fileBox(kind: 'base' | 'log', name: string, path: string, size: number, scale: number): HTMLElement {
  const box = h('span', { class: `file ${kind}`, title: `${name}\n${formatBytes(size)}`, 'data-path': path, 'data-size': String(size) });
  box.style.width = `${Math.max(MIN_FILE, Math.round(size * scale))}px`;
  return box;
}

/**
 * Draw `slices` into `picture` (the bars) and `list` (the table); `what` captions both. With `table`, the plans of
 * its next compaction and clean (dry runs) are loaded and marked on the picture once they arrive (see
 * `showLayoutPlans`); every call draws afresh, so redrawing after a write or a service refreshes them.
 */
export function renderLayout(picture: HTMLElement, list: HTMLElement, caption: HTMLElement, slices: readonly FileSlice[], what: string, table?: Table): void {
  const bytes = slices.reduce((n, s) => n + sliceBytes(s), 0);
  const files = slices.reduce((n, s) => n + (s.baseFile ? 1 : 0) + s.logFiles.length, 0);
  caption.textContent = `${what}: reads ${plural(slices.length, 'file slice')}, ${plural(files, 'file')}, ${formatBytes(bytes)}.`;
  const scale = BAR / Math.max(1, ...slices.map(sliceBytes));
  const parts: HTMLElement[] = [];
  for (const [partition, group] of byPartition(slices)) {
    const partBytes = group.reduce((n, s) => n + sliceBytes(s), 0);
    const rows = group.map((s) => {
      const bar = h('span', { class: 'bar' });
      if (s.baseFile) bar.append(fileBox('base', s.baseFile.name, s.baseFile.path, s.baseFile.size, scale));
      for (const l of s.logFiles) bar.append(fileBox('log', l.name, l.path, l.size, scale));
      return h('div', {
        class: 'slice', 'data-partition': s.partitionPath, 'data-file-id': s.fileId, 'data-base-instant': s.baseInstantTime,
        title: `file group ${s.fileId}\nslice ${s.baseInstantTime}: ${s.baseFile ? 'base file' : 'log-only'}${s.logFiles.length > 0 ? ` + ${plural(s.logFiles.length, 'log file')}` : ''}`,
      }, h('span', { class: 'group-id' }, s.fileId.slice(0, 8)), bar, h('span', { class: 'size' }, formatBytes(sliceBytes(s))));
    });
    parts.push(h('div', { class: 'partition', 'data-partition': partition },
      h('div', { class: 'partition-head' }, h('strong', {}, partition === '' ? '(not partitioned)' : partition),
        ` ${plural(group.length, 'file group')} · ${formatBytes(partBytes)}`),
      ...rows));
  }
  if (parts.length === 0) parts.push(h('p', { class: 'caption' }, 'No file slices: nothing written yet.'));
  const legend = h('div', { class: 'legend' }, h('span', { class: 'key file-base' }, 'base file'), h('span', { class: 'key file-log' }, 'log file'),
    h('span', { class: 'hint' }, 'width ∝ bytes'));
  show(picture, legend, ...parts);
  picture.dataset.scale = String(scale); // px per byte, for boxes layout-plans.ts adds
  renderList(list, slices);
  if (table) void showLayoutPlans(picture, caption, table);
  else forgetLayoutPlans(picture);
}

function renderList(list: HTMLElement, slices: readonly FileSlice[]): void {
  const logs = (s: FileSlice) => {
    const td = h('td', { class: 'files' });
    if (s.logFiles.length === 0) td.append(h('span', { class: 'null' }, '—'));
    for (const l of s.logFiles) td.append(h('div', { title: l.path }, `${l.name} (${formatBytes(l.size)})`));
    return td;
  };
  const base = (s: FileSlice) => s.baseFile
    ? h('td', { class: 'files', title: s.baseFile.path }, `${s.baseFile.name} (${formatBytes(s.baseFile.size)})`)
    : h('td', { class: 'null' }, 'log-only');
  show(list, dataTable(['partition', 'file id', 'base instant', 'base file', 'log files'], slices.map((s) => [
    s.partitionPath === '' ? '(none)' : s.partitionPath, s.fileId, s.baseInstantTime, base(s), logs(s),
  ]), 'data slices'));
}
