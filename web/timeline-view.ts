// The timeline as a picture: a time axis (inline SVG built with DOM calls) with one mark per instant, coloured
// by action and drawn by state (completed filled, inflight ringed, requested hollow); clicking a mark selects
// the instant. The same instants also as a table, for reading and copying.
import type { Instant } from '../src/index.js';
import { dataTable, h, show } from './table-view.js';

const SVG = 'http://www.w3.org/2000/svg';
const HEIGHT = 74;
const PAD = 18;
const AXIS_Y = 34;
/** Closest two marks may sit (px): instants milliseconds apart still get their own mark. */
const MIN_GAP = 14;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/** An instant time (`yyyyMMddHHmmss[SSS]`) as epoch milliseconds (read as UTC: only distances matter here). */
export function instantMillis(time: string): number {
  const n = (a: number, b: number) => Number(time.slice(a, b) || 0);
  return Date.UTC(n(0, 4), n(4, 6) - 1, n(6, 8), n(8, 10), n(10, 12), n(12, 14), n(14, 17));
}

/** `2024-04-18 17:35:50.988` for an instant time. */
export function formatInstant(time: string): string {
  return new Date(instantMillis(time)).toISOString().replace('T', ' ').replace('Z', '');
}

/** X positions of instants on an axis `width` wide: by time, pushed apart to at least {@link MIN_GAP}. */
export function axisPositions(times: readonly number[], width: number): number[] {
  const first = times[0] ?? 0;
  const span = Math.max(1, (times.at(-1) ?? first) - first);
  const xs: number[] = [];
  for (const t of times) {
    const x = PAD + ((t - first) / span) * (width - 2 * PAD);
    xs.push(Math.max(x, (xs.at(-1) ?? PAD - MIN_GAP) + MIN_GAP));
  }
  return xs;
}

/** Options of {@link renderTimeline}. */
export interface TimelineViewOptions {
  /** The instant drawn as selected. */
  selected?: string | undefined;
  /** Called when a mark (or a table row) is clicked. */
  onSelect(instant: Instant): void;
}

/** Draw the picture into `picture` and the table into `list`. */
export function renderTimeline(picture: HTMLElement, list: HTMLElement, instants: readonly Instant[], options: TimelineViewOptions): void {
  if (instants.length === 0) {
    show(picture, h('p', { class: 'caption' }, 'The timeline is empty: no commits yet.'));
    show(list);
    return;
  }
  const times = instants.map((i) => instantMillis(i.requestedTime));
  const width = Math.max(picture.clientWidth || 760, 320);
  const xs = axisPositions(times, width);
  const total = Math.max(width, (xs.at(-1) ?? 0) + PAD);
  const root = svg('svg', { class: 'timeline-axis', width: total, height: HEIGHT, viewBox: `0 0 ${total} ${HEIGHT}`, role: 'list', 'aria-label': 'timeline' });
  root.append(svg('line', { class: 'axis', x1: PAD / 2, x2: total - PAD / 2, y1: AXIS_Y, y2: AXIS_Y }));
  const first = instants[0] as Instant;
  const last = instants.at(-1) as Instant;
  root.append(svg('text', { class: 'tick', x: PAD / 2, y: HEIGHT - 6 }, formatInstant(first.requestedTime)));
  if (instants.length > 1) root.append(svg('text', { class: 'tick end', x: total - PAD / 2, y: HEIGHT - 6 }, formatInstant(last.requestedTime)));
  instants.forEach((instant, n) => {
    const x = xs[n] as number;
    const state = instant.state.toLowerCase();
    const mark = svg('g', {
      class: `mark action-${instant.action} state-${state}${instant.requestedTime === options.selected ? ' selected' : ''}`,
      transform: `translate(${x.toFixed(1)} ${AXIS_Y})`, tabindex: 0, role: 'listitem',
      'data-instant': instant.requestedTime, 'data-action': instant.action, 'data-state': state,
    },
    svg('title', {}, `${instant.requestedTime} · ${instant.action} · ${state}${instant.completionTime ? ` · completed ${instant.completionTime}` : ''}`),
    svg('line', { class: 'stem', x1: 0, x2: 0, y1: -16, y2: -8 }),
    svg('circle', { r: 6 }));
    mark.addEventListener('click', () => options.onSelect(instant));
    mark.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') options.onSelect(instant);
    });
    root.append(mark);
  });
  const actions = [...new Set(instants.map((i) => i.action))];
  const legend = h('div', { class: 'legend' }, ...actions.map((a) => h('span', { class: `key action-${a}` }, a)),
    h('span', { class: 'key state-inflight' }, 'pending'));
  show(picture, root, legend);
  renderList(list, instants, options);
}

function renderList(list: HTMLElement, instants: readonly Instant[], options: TimelineViewOptions): void {
  const t = dataTable(['requested', 'action', 'state', 'completion'], instants.map((i) => [
    i.requestedTime, i.action, i.state.toLowerCase(),
    // Layout 1 (table version 6) does not record completion times.
    i.completionTime ?? h('td', { class: 'null', title: 'not recorded by timeline layout 1' }, '—'),
  ]), 'data timeline');
  instants.forEach((i, n) => {
    const tr = t.tBodies[0]?.rows[n];
    if (!tr) return;
    tr.dataset.instant = i.requestedTime;
    tr.classList.toggle('pending', i.state !== 'COMPLETED');
    tr.classList.toggle('selected', i.requestedTime === options.selected);
    tr.addEventListener('click', () => options.onSelect(i));
  });
  show(list, t);
}
