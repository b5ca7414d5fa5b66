// The query panel's instant pickers: "as of" (a select and a time-travel slider over the timeline's completed
// writes, kept in step; the instant under the thumb is shown beside it) and the from/to pickers of
// incremental and change-stream reads.
import type { Instant, Table } from '../src/index.js';
import { byId } from './page.js';
import { formatInstant } from './timeline-view.js';

/** The "from" of an incremental read of everything. */
export const TIMELINE_START = '00000000000000000';

export class InstantPickers {
  readonly ui = {
    asOf: byId<HTMLSelectElement>('as-of'),
    slider: byId<HTMLInputElement>('as-of-slider'),
    thumb: byId<HTMLOutputElement>('as-of-thumb'),
    from: byId<HTMLSelectElement>('from'),
    to: byId<HTMLSelectElement>('to'),
  };
  private commits: Instant[] = [];

  /** `onChange` runs when the as-of instant is picked by slider (on release) or select. */
  constructor(onChange: () => void) {
    const { ui } = this;
    ui.slider.addEventListener('input', () => this.showThumb());
    ui.slider.addEventListener('change', () => {
      const i = this.commits[Number(ui.slider.value)];
      ui.asOf.value = i && Number(ui.slider.value) < this.commits.length - 1 ? i.requestedTime : '';
      onChange();
    });
    ui.asOf.addEventListener('change', () => this.syncSlider());
  }

  /** Fill the pickers with `t`'s completed writes, keeping each selection that still exists. */
  fill(t: Table): void {
    const commits = t.commits;
    this.commits = commits;
    const option = (i: Instant) => new Option(`${i.requestedTime} · ${i.action}`, i.requestedTime);
    const fill = (select: HTMLSelectElement, first: HTMLOptionElement) => {
      const keep = select.value;
      select.replaceChildren(first, ...commits.map(option));
      if (commits.some((i) => i.requestedTime === keep)) select.value = keep;
    };
    fill(this.ui.asOf, new Option('latest', ''));
    fill(this.ui.from, new Option('start of timeline', TIMELINE_START));
    fill(this.ui.to, new Option('latest', ''));
    this.ui.slider.max = String(Math.max(0, commits.length - 1));
    this.ui.slider.disabled = commits.length < 2;
    this.syncSlider();
  }

  /** Back to the latest write. */
  latest(): void {
    this.ui.asOf.value = '';
    this.ui.to.value = '';
    this.syncSlider();
  }

  /** The as-of instant (undefined: latest). */
  get asOf(): string | undefined {
    return this.ui.asOf.value || undefined;
  }

  /** The `(from, to]` window (to undefined: latest). */
  get window(): { from: string; to: string | undefined } {
    return { from: this.ui.from.value || TIMELINE_START, to: this.ui.to.value || undefined };
  }

  private syncSlider(): void {
    const at = this.commits.findIndex((i) => i.requestedTime === this.ui.asOf.value);
    this.ui.slider.value = String(at >= 0 ? at : Math.max(0, this.commits.length - 1));
    this.showThumb();
  }

  /** Show the instant under the thumb, placed over it. */
  private showThumb(): void {
    const { slider, thumb } = this.ui;
    const index = Number(slider.value);
    const i = this.commits[index];
    const last = index >= this.commits.length - 1;
    thumb.value = i ? `${i.requestedTime} · ${i.action}${last ? ' (latest)' : ''}` : 'no commits';
    thumb.title = i ? formatInstant(i.requestedTime) : '';
    thumb.dataset.instant = i?.requestedTime ?? '';
    const max = Number(slider.max) || 1;
    thumb.style.setProperty('--at', String(this.commits.length > 1 ? index / max : 1));
  }
}
