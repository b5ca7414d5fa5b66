// The table services as compact buttons — compact, clean, archive, savepoint, restore, rollback — each showing
// what it changed: the result object the library returned, and the instants and files it added or removed.
import type { Table } from '../src/index.js';
import { describeChange, Operations, type OperationOutcome } from './operations.js';
import { byId, plural, toJson } from './page.js';
import { h, show } from './table-view.js';

type Service = 'compact' | 'clean' | 'archive' | 'savepoint' | 'restore' | 'rollback';

export class ServicesPanel {
  private readonly ui = {
    compact: byId<HTMLButtonElement>('compact'),
    clean: byId<HTMLButtonElement>('clean'),
    archive: byId<HTMLButtonElement>('archive'),
    savepoint: byId<HTMLButtonElement>('savepoint'),
    restoreTo: byId<HTMLSelectElement>('restore-to'),
    restore: byId<HTMLButtonElement>('restore'),
    rollback: byId<HTMLButtonElement>('rollback'),
    result: byId('service-result'),
  };

  constructor(private readonly ops: Operations) {
    const { ui } = this;
    this.on('compact', async (t) => {
      const results = await t.compact();
      const sum = (f: (r: (typeof results)[number]) => number) => results.reduce((n, r) => n + f(r), 0);
      return [results, {
        instant: results.map((r) => r.instant).join(', ') || '—',
        details: results.length === 0 ? 'nothing to compact'
          : `${plural(sum((r) => r.fileGroups), 'file group')}, ${plural(sum((r) => r.logFilesCompacted), 'log file')} → ${plural(sum((r) => r.recordsWritten), 'record')}`,
      }];
    });
    this.on('clean', async (t) => {
      const r = await t.clean();
      return [r ?? null, r ? { instant: r.instant, details: `${plural(r.filesDeleted, 'file')} deleted; readable from ${r.earliestInstantToRetain ?? 'any commit'}` }
        : { instant: '—', details: 'nothing to clean' }];
    });
    this.on('archive', async (t) => {
      const archived = await t.archive();
      return [archived, { instant: '—', details: archived.length === 0 ? 'nothing to archive' : `${plural(archived.length, 'instant')} moved to the archived timeline` }];
    });
    this.on('savepoint', async (t) => {
      const r = await t.savepoint();
      return [r, { instant: r.instant, details: `savepointed ${r.instant}` }];
    });
    this.on('restore', async (t) => {
      const r = await t.restore(ui.restoreTo.value);
      return [r, { instant: r.instant, details: `restored to ${r.savepoint}; rolled back ${plural(r.rolledBack.length, 'instant')}` }];
    });
    this.on('rollback', async (t) => {
      const r = await t.rollback();
      return [r, { instant: r.instant, details: `rolled back ${r.rolledBack}; ${plural(r.filesDeleted, 'file')} deleted` }];
    });
    ops.listeners.push(() => this.sync());
  }

  /** Wire a button: run the service, then show its result object and what changed. */
  private on(service: Service, op: (t: Table) => Promise<[unknown, OperationOutcome]>): void {
    this.ui[service].addEventListener('click', () => void (async () => {
      let result: unknown;
      const change = await this.ops.run(service, async (t) => {
        const [r, outcome] = await op(t);
        result = r;
        return outcome;
      });
      if (!change) return;
      const box = this.ui.result;
      box.dataset.service = service;
      box.dataset.filesAdded = String(change.filesAdded.length);
      box.dataset.filesRemoved = String(change.filesRemoved.length);
      show(box, h('strong', {}, service), h('span', { class: 'change' }, describeChange(change)), h('pre', {}, toJson(result)));
      box.hidden = false;
    })());
  }

  /** Forget the last result (a new table was opened). */
  reset(): void {
    this.ui.result.hidden = true;
    show(this.ui.result);
  }

  /** Enable the services that make sense now. */
  private sync(): void {
    const { ui } = this;
    const t = this.ops.table;
    const off = !t || this.ops.busy;
    for (const b of [ui.compact, ui.clean, ui.archive, ui.savepoint, ui.restoreTo, ui.restore, ui.rollback]) b.disabled = off;
    if (!t) return;
    const mor = t.config.tableType === 'MERGE_ON_READ';
    const savepoints = t.timeline.filter((i) => i.action === 'savepoint' && i.state === 'COMPLETED');
    const selected = ui.restoreTo.value;
    ui.restoreTo.replaceChildren(...savepoints.map((s) => new Option(s.requestedTime, s.requestedTime)).reverse());
    if (savepoints.some((s) => s.requestedTime === selected)) ui.restoreTo.value = selected;
    if (savepoints.length === 0) ui.restoreTo.append(new Option('no savepoints', ''));
    ui.compact.disabled ||= !mor;
    ui.compact.title = mor ? 'compact log files into new base files' : 'copy-on-write tables have no log files to compact';
    ui.restoreTo.disabled ||= savepoints.length === 0;
    ui.restore.disabled ||= savepoints.length === 0;
    ui.savepoint.disabled ||= t.commits.length === 0;
    ui.rollback.disabled ||= t.commits.length === 0;
  }
}
