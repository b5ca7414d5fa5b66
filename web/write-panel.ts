// The "Write" panel: the generator (rows, share of updates and deletes, uniform or skewed keys, seed) writing
// one upsert and, when the batch has deletes, one delete; random deletes; the record count of the latest
// snapshot, which the generator's updates and deletes pick from. Writes run in lakelet's worker pool (its
// default in browsers), show progress by phase, can be cancelled until they commit, and end with a summary.
import { type Table, type WriteOptions, type WriteProgress, type WriteResult } from '../src/index.js';
import { generate, generateInSlices, mixSeed, plan, type GeneratorSpec } from './generator.js';
import { Operations, type OperationOutcome } from './operations.js';
import { byId, plural } from './page.js';
import { formatBytes } from './table-view.js';

/** The largest batch the form takes. */
const MAX_ROWS = 200_000;

export class WritePanel {
  private readonly ui = {
    section: byId('write'),
    readOnly: byId('write-readonly'),
    form: byId<HTMLFormElement>('write-form'),
    count: byId<HTMLInputElement>('upsert-count'),
    updateShare: byId<HTMLInputElement>('update-share'),
    deleteShare: byId<HTMLInputElement>('delete-share'),
    distribution: byId<HTMLSelectElement>('distribution'),
    seed: byId<HTMLInputElement>('seed'),
    generate: byId<HTMLButtonElement>('upsert'),
    deleteCount: byId<HTMLInputElement>('delete-count'),
    delete: byId<HTMLButtonElement>('delete'),
    recordCount: byId('record-count'),
    summary: byId('generate-summary'),
    cancel: byId<HTMLButtonElement>('write-cancel'),
  };
  /** The running write's cancel switch (undefined: none running, or it can no longer be cancelled). */
  private abort: AbortController | undefined;
  /** Key and partition fields of every record of the latest snapshot: what updates and deletes pick from. */
  private existing: Record<string, unknown>[] = [];
  /** The greatest `ts` seen, so new versions order after the old ones. */
  private maxTs = 0;

  constructor(private readonly ops: Operations, private readonly writeOptions: (t: Table) => WriteOptions) {
    this.ui.form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.generate();
    });
    this.ui.delete.addEventListener('click', () => void this.deleteRandom());
    this.ui.cancel.addEventListener('click', () => this.abort?.abort());
    ops.listeners.push(() => this.sync());
    ops.refreshers.push((t) => this.loadKeys(t));
  }

  /** Show the panel: writable for `table`, or hidden with the reason it is read-only. */
  async open(table: Table | undefined, readOnlyReason?: string): Promise<void> {
    const { ui } = this;
    this.existing = [];
    ui.readOnly.hidden = !readOnlyReason;
    ui.readOnly.textContent = readOnlyReason ?? '';
    ui.section.classList.toggle('read-only', Boolean(readOnlyReason));
    ui.recordCount.textContent = '';
    delete ui.recordCount.dataset.count;
    ui.summary.textContent = '';
    this.sync();
    if (table && !readOnlyReason) await this.loadKeys(table);
  }

  /** Enable the controls that make sense now. */
  private sync(): void {
    const off = !this.ops.table || this.ops.busy;
    for (const c of this.ui.form.querySelectorAll<HTMLButtonElement | HTMLInputElement | HTMLSelectElement>('button, input, select')) c.disabled = off;
    this.ui.delete.disabled ||= this.existing.length === 0;
  }

  /** Read the key (and partition and ts) columns of the latest snapshot: cheap with parquet projection. */
  async loadKeys(t: Table): Promise<void> {
    const keep = [...new Set([...t.config.recordKeyFields, ...t.config.partitionFields])];
    const fields = (await t.avroSchema()).fields.map((f) => f.name);
    const withTs = fields.includes('ts');
    const existing: Record<string, unknown>[] = [];
    let maxTs = 0;
    if (t.commits.length > 0) {
      for await (const row of t.rows({ columns: withTs ? [...keep, 'ts'] : keep })) {
        if (withTs) maxTs = Math.max(maxTs, Number(row.ts));
        existing.push(Object.fromEntries(keep.map((k) => [k, row[k]])));
      }
    }
    this.existing = existing;
    this.maxTs = maxTs;
    this.ui.recordCount.textContent = `${plural(existing.length, 'record')} in the latest snapshot.`;
    this.ui.recordCount.dataset.count = String(existing.length);
    this.sync();
  }

  private number(input: HTMLInputElement, fallback: number, max: number): number {
    const n = Number(input.value);
    return Number.isFinite(n) && n >= 0 ? Math.min(n, max) : fallback;
  }

  /** The generator settings of the form. */
  spec(): GeneratorSpec {
    const { ui } = this;
    return {
      count: Math.floor(this.number(ui.count, 1000, MAX_ROWS)) || 1,
      updateShare: this.number(ui.updateShare, 30, 100) / 100,
      deleteShare: this.number(ui.deleteShare, 0, 100) / 100,
      distribution: ui.distribution.value === 'skewed' ? 'skewed' : 'uniform',
      seed: Math.floor(this.number(ui.seed, 1, 2 ** 31)),
    };
  }

  private generate(): Promise<void> {
    const spec = this.spec();
    const started = performance.now();
    return this.write('upsert', async (t, control) => {
      // The table's state is part of the seed: the same seed twice in a row gives new keys, not the same ones again.
      const seeded = { ...spec, seed: mixSeed(spec.seed, t.timeline.length) };
      const fields = (await t.avroSchema()).fields.map((f) => f.name).filter((n) => !n.startsWith('_hoodie_'));
      const batch = await generateInSlices(seeded, fields, this.existing, Math.max(Date.now(), this.maxTs + 1)); // no long task while it builds
      const options = { ...this.writeOptions(t), ...control };
      const { inserts, updates, deletes } = plan(spec, this.existing.length);
      const out: OperationOutcome[] = [];
      const u = await t.upsert(batch.upserts, options);
      out.push({ instant: u.instant, stats: u.stats, details: `${plural(inserts, 'new trip')}, ${plural(updates, 'update')} (${spec.distribution})` });
      const results: WriteResult[] = [u];
      if (batch.deletes.length > 0) {
        const d = await t.delete(batch.deletes, options);
        results.push(d);
        out.push({ instant: d.instant, stats: d.stats, details: `${plural(deletes, 'key')} of the batch` });
      }
      this.showSummary(results, performance.now() - started);
      return out;
    });
  }

  /** The summary of one generator run: records, files, bytes, time (also as data attributes for the tests). */
  private showSummary(results: readonly WriteResult[], ms: number): void {
    const sum = (f: (r: WriteResult) => number) => results.reduce((n, r) => n + f(r), 0);
    const totals = {
      inserted: sum((r) => r.stats.inserted), updated: sum((r) => r.stats.updated), deleted: sum((r) => r.stats.deleted),
      files: sum((r) => r.stats.filesWritten), bytes: sum((r) => r.stats.bytesWritten), ms: Math.round(ms),
    };
    const s = this.ui.summary;
    for (const [k, v] of Object.entries(totals)) s.dataset[k] = String(v);
    const took = ms < 1000 ? `${totals.ms} ms` : `${(ms / 1000).toFixed(2)} s`;
    s.textContent = `Generated: ${plural(totals.inserted, 'insert')}, ${plural(totals.updated, 'update')}, ${plural(totals.deleted, 'delete')} · `
      + `${plural(totals.files, 'file')}, ${formatBytes(totals.bytes)} written in ${took} (${results.map((r) => r.instant).join(' + ')}).`;
  }

  private deleteRandom(): Promise<void> {
    const n = Math.floor(this.number(this.ui.deleteCount, 10, MAX_ROWS)) || 1;
    return this.write('delete', async (t, control) => {
      const batch = generate({ count: n, updateShare: 0, deleteShare: 1, distribution: 'uniform', seed: mixSeed(Date.now(), n) }, [], this.existing, 0);
      const r = await t.delete(batch.deletes, { ...this.writeOptions(t), ...control });
      return { instant: r.instant, stats: r.stats, details: `${plural(batch.deletes.length, 'random key')}` };
    });
  }

  /**
   * Run a write through the operations runner with a cancel switch, armed at once (a click on Cancel right
   * after Generate counts): the write's `signal` option. An aborted write rejects ABORTED and lakelet discards
   * its attempt (nothing of it stays on the table); once its commit is written it can no longer be cancelled.
   */
  private async write(operation: string, op: (t: Table, control: { onProgress: (p: WriteProgress) => void; signal: AbortSignal }) => Promise<OperationOutcome | OperationOutcome[]>): Promise<void> {
    if (!this.ops.table || this.ops.busy) return;
    const abort = new AbortController();
    this.abort = abort;
    this.ui.cancel.disabled = false;
    const onProgress = (p: WriteProgress) => {
      if (p.phase === 'commit' && p.done === p.total) this.ui.cancel.disabled = true;
      this.ops.onProgress(p);
    };
    try {
      await this.ops.run(operation, (t) => op(t, { onProgress, signal: abort.signal }));
    } finally {
      if (this.abort === abort) this.abort = undefined;
      this.ui.cancel.disabled = true;
    }
  }

}
