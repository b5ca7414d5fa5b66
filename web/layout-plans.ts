// What the next table services would touch, drawn onto the file layout: the slices the next compaction merges
// (table.compactionPlan(), merge-on-read tables) and the files the next clean deletes (table.cleanPlan()) are
// highlighted, files the clean deletes that the drawn snapshot does not show (older slices) are added below,
// and the caption counts both. Plans are dry runs: reading them writes nothing.
import type { PlannedClean, PlannedCompaction, Table } from '../src/index.js';
import { plural } from './page.js';
import { formatBytes, h } from './table-view.js';

/** What the next compaction and clean would touch. */
export interface LayoutPlans {
  /** Undefined on copy-on-write tables (nothing to compact). */
  compaction: PlannedCompaction | undefined;
  clean: PlannedClean;
  /** Sizes (bytes) of the clean's files, by path (from a listing of their partitions). */
  sizes: Map<string, number>;
}

/** Read both plans of `table` (dry runs) and the sizes of the files the clean would delete. */
export async function loadLayoutPlans(table: Table): Promise<LayoutPlans> {
  const compaction = table.config.tableType === 'MERGE_ON_READ' ? await table.compactionPlan() : undefined;
  const clean = await table.cleanPlan();
  const sizes = new Map<string, number>();
  for (const partition of Object.keys(clean.filesToDelete)) {
    for (const f of await table.storage.list(partition)) sizes.set(f.path, f.size);
  }
  return { compaction, clean, sizes };
}

/** The latest plan load of each picture: an older one that finishes late changes nothing. */
const latest = new WeakMap<HTMLElement, number>();
let loads = 0;

/**
 * Load the plans of `table` and mark them on the layout just drawn into `picture`: slices (`.slice`) of file
 * groups the next compaction merges get `data-next-compaction="true"`, files (`.file`) the next clean deletes
 * `data-next-clean="true"`; `caption` gets "next compaction: N slices; next clean: M files". `picture` says
 * `data-plans="loading|ready|error"` and, when ready, `data-next-compaction-count` / `data-next-clean-count`.
 */
export async function showLayoutPlans(picture: HTMLElement, caption: HTMLElement, table: Table, load = loadLayoutPlans): Promise<void> {
  const mine = ++loads;
  latest.set(picture, mine);
  picture.dataset.plans = 'loading';
  let plans: LayoutPlans;
  try {
    plans = await load(table);
  } catch (err) {
    if (latest.get(picture) !== mine) return;
    picture.dataset.plans = 'error';
    caption.append(h('span', { class: 'plans-caption' }, ` Next services: unknown (${err instanceof Error ? err.message : String(err)}).`));
    return;
  }
  if (latest.get(picture) !== mine) return;
  markPlans(picture, caption, plans);
}

/** A layout drawn without plans: a plan load still running for `picture` changes nothing. */
export function forgetLayoutPlans(picture: HTMLElement): void {
  latest.set(picture, ++loads);
  delete picture.dataset.plans;
}

/** Mark `plans` on the drawn layout (see {@link showLayoutPlans}). */
export function markPlans(picture: HTMLElement, caption: HTMLElement, plans: LayoutPlans): void {
  const groups = new Set((plans.compaction?.slices ?? []).map((s) => `${s.partitionPath}\u0000${s.fileId}`));
  for (const el of picture.querySelectorAll<HTMLElement>('.slice')) {
    if (!groups.has(`${el.dataset.partition ?? ''}\u0000${el.dataset.fileId ?? ''}`)) continue;
    el.classList.add('next-compaction');
    el.dataset.nextCompaction = 'true';
  }
  const cleaned = new Set(Object.values(plans.clean.filesToDelete).flat());
  const drawn = new Set<string>();
  for (const el of picture.querySelectorAll<HTMLElement>('.file')) {
    const path = el.dataset.path ?? '';
    if (!cleaned.has(path)) continue;
    drawn.add(path);
    el.classList.add('next-clean');
    el.dataset.nextClean = 'true';
  }
  const older = [...cleaned].filter((p) => !drawn.has(p)).sort();
  if (older.length > 0) {
    const scale = Number(picture.dataset.scale ?? 0);
    const boxes = older.map((path) => {
      const size = plans.sizes.get(path) ?? 0;
      const name = path.slice(path.lastIndexOf('/') + 1);
      // Not `.base`/`.log`, nor in a `.slice` row: those are the drawn snapshot's (the demo tests count them).
      const box = h('span', { class: 'file older next-clean', 'data-kind': name.includes('.log.') ? 'log' : 'base', 'data-path': path, 'data-size': String(size), 'data-next-clean': 'true', title: `${path}\n${formatBytes(size)}\nnot in this snapshot: an older file slice` });
      box.style.width = `${Math.max(4, Math.round(size * scale))}px`;
      return box;
    });
    picture.append(h('div', { class: 'older-files' },
      h('div', { class: 'partition-head' }, h('strong', {}, 'older file slices'), ` the next clean deletes (${plural(older.length, 'file')}, not in this snapshot)`),
      h('div', { class: 'older-row' }, h('span', { class: 'bar' }, ...boxes))));
  }
  const slices = plans.compaction?.slices.length ?? 0;
  picture.querySelector('.legend')?.append(
    ...(plans.compaction ? [h('span', { class: 'key next-compaction' }, 'next compaction')] : []),
    h('span', { class: 'key next-clean' }, 'next clean'));
  const parts = [...(plans.compaction ? [`next compaction: ${plural(slices, 'slice')}`] : []), `next clean: ${plural(plans.clean.fileCount, 'file')}`];
  caption.append(h('span', { class: 'plans-caption' }, ` ${parts.join('; ')}.`));
  picture.dataset.nextCompactionCount = String(slices);
  picture.dataset.nextCleanCount = String(plans.clean.fileCount);
  picture.dataset.plans = 'ready';
}
