// "Data in", files of rows: a CSV, JSON lines or parquet file picked or dropped is read, its schema inferred and
// shown in an editable table with record key, ordering and partition pickers; "Import rows" creates the new
// table with that schema (or types the rows by the open table's schema) and upserts them through the
// normal write path, with its progress bar and log line.
import { avroSchemaToJson, LakeletError, type CreateTableOptions, type Table } from '../src/index.js';
import type { DataHost } from './data-host.js';
import { renderPreview, renderSchemaEditor } from './import-editor.js';
import { readImportFile, type ImportFile } from './import-file.js';
import { avroSchemaOf, checkColumns, inferColumns, tableColumns, typedRows, type ImportColumn } from './import-schema.js';
import { byId, clearError, plural, setState, showError } from './page.js';
import { checkTableName } from './stores.js';

/** The target option meaning "a new table". */
const NEW = 'new';

export class ImportPanel {
  private readonly ui = {
    form: byId<HTMLFormElement>('import-form'),
    caption: byId('import-caption'),
    target: byId<HTMLSelectElement>('import-target'),
    newGroup: byId('import-new'),
    name: byId<HTMLInputElement>('import-name'),
    type: byId<HTMLSelectElement>('import-type'),
    key: byId<HTMLSelectElement>('import-key'),
    ordering: byId<HTMLSelectElement>('import-ordering'),
    partition: byId<HTMLSelectElement>('import-partition'),
    version: byId<HTMLSelectElement>('import-version'),
    schema: byId('import-schema'),
    preview: byId('import-preview'),
    write: byId<HTMLButtonElement>('import-write'),
    summary: byId('import-summary'),
  };
  private file: ImportFile | undefined;
  /** The columns of the schema editor (a new table). */
  private columns: ImportColumn[] = [];

  constructor(private readonly host: DataHost) {
    const { ui } = this;
    ui.form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.run();
    });
    byId('import-cancel').addEventListener('click', () => this.close());
    ui.target.addEventListener('change', () => void this.render());
    host.ops.listeners.push(() => this.sync());
  }

  /** Read a picked or dropped file and show its schema. */
  async load(file: File): Promise<void> {
    clearError();
    try {
      this.file = await readImportFile(file.name, new Uint8Array(await file.arrayBuffer()));
      this.columns = inferColumns(this.file);
      this.ui.name.value = file.name.replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=\d)/, '_').slice(0, 64) || 'imported';
      this.ui.summary.textContent = '';
      this.ui.form.hidden = false;
      this.fillTargets();
      await this.render();
    } catch (err) {
      this.close();
      showError(err);
    }
  }

  private close(): void {
    this.file = undefined;
    this.ui.form.hidden = true;
  }

  /** Targets: a new table in the store, or the open table when it is writable. */
  private fillTargets(): void {
    const open = this.host.ops.table;
    const keep = this.ui.target.value;
    this.ui.target.replaceChildren(new Option('a new table', NEW), ...(open ? [new Option(`the open table ${open.config.name}`, 'open')] : []));
    this.ui.target.value = keep === 'open' && open ? 'open' : NEW;
  }

  private sync(): void {
    if (!this.file) return;
    const before = this.ui.target.value;
    this.fillTargets();
    if (this.ui.target.value !== before) void this.render();
    this.ui.write.disabled = this.host.ops.busy;
  }

  /** The schema editor (new table) or the open table's typing of the columns, and the key pickers. */
  private async render(): Promise<void> {
    const { file, ui } = this;
    if (!file) return;
    const open = ui.target.value === NEW ? undefined : this.host.ops.table;
    ui.newGroup.hidden = open !== undefined;
    ui.caption.textContent = `${file.name}: ${plural(file.rows.length, 'row')}, ${plural(file.columns.length, 'column')} (${file.format}). `
      + (open ? `Rows are typed and checked by ${open.config.name}'s schema.` : 'Edit the schema before the table is created.');
    if (open) {
      renderSchemaEditor(ui.schema, tableColumns(file, await this.tableJson(open)), false, () => {});
    } else {
      renderSchemaEditor(ui.schema, this.columns, true, () => this.fillPickers());
      this.fillPickers();
    }
    renderPreview(ui.preview, file.columns, file.rows);
  }

  private async tableJson(t: Table): Promise<{ fields: { name: string; type: unknown }[] }> {
    return avroSchemaToJson(await t.avroSchema()) as { fields: { name: string; type: unknown }[] };
  }

  /** Record key, ordering and partition choices from the edited column names, keeping each choice that still exists. */
  private fillPickers(): void {
    const names = this.columns.map((c) => c.name).filter(Boolean);
    const fill = (select: HTMLSelectElement, none: string | undefined, guess: (n: string) => boolean) => {
      const keep = select.value;
      const chosen = select.options.length > 0 && (names.includes(keep) || (keep === '' && none !== undefined));
      select.replaceChildren(...(none !== undefined ? [new Option(none, '')] : []), ...names.map((n) => new Option(n, n)));
      select.value = chosen ? keep : names.find(guess) ?? (none === undefined ? names[0] ?? '' : '');
    };
    fill(this.ui.key, undefined, (n) => /^(id|uuid|key|.*_id)$/i.test(n));
    fill(this.ui.ordering, 'none (latest write wins)', (n) => /^(ts|timestamp|updated_at|modified)$/i.test(n));
    fill(this.ui.partition, 'none', () => false);
  }

  /** Create the new table (or take the open one) and upsert the file's rows. */
  private async run(): Promise<void> {
    const { file, ui, host } = this;
    if (!file || host.ops.busy) return;
    clearError();
    try {
      let table = ui.target.value === NEW ? undefined : host.ops.table;
      // Rows are typed before anything is created: a file that does not fit leaves the store unchanged.
      const rows = table ? typedRows(file, tableColumns(file, await this.tableJson(table))) : typedRows(file, this.columns);
      if (!table) {
        const store = host.store();
        if (!store?.writable) throw new LakeletError('UNSUPPORTED', `import: ${store?.label ?? 'no store'} is not writable; connect OPFS, IndexedDB or S3 to import into a new table`, {});
        if (!(await host.create(store, this.newTableOptions()))) return; // the create failed and showed why
        table = host.ops.table;
        if (!table) return;
      }
      const name = file.name;
      const change = await host.ops.run('import', async (t) => {
        const r = await t.upsert(rows, { ...host.writeOptions(t), onProgress: host.ops.onProgress });
        return { instant: r.instant, stats: r.stats, details: `${plural(rows.length, 'row')} of ${name}` };
      });
      if (!change) return;
      ui.summary.dataset.rows = String(rows.length);
      ui.summary.textContent = `Imported ${plural(rows.length, 'row')} of ${name} into ${table.config.name}.`;
      this.close();
    } catch (err) {
      setState('error');
      showError(err);
    }
  }

  private newTableOptions(): CreateTableOptions {
    const { ui } = this;
    const name = ui.name.value.trim();
    const problem = checkTableName(name);
    if (problem) throw new LakeletError('INVALID_ARGUMENT', `import: table name ${JSON.stringify(name)}: ${problem}`, { field: 'name', value: name });
    checkColumns(this.columns);
    if (!ui.key.value) throw new LakeletError('INVALID_ARGUMENT', 'import: pick a record key column', { field: 'recordKey' });
    return {
      name,
      type: ui.type.value === 'MERGE_ON_READ' ? 'MERGE_ON_READ' : 'COPY_ON_WRITE',
      recordKey: ui.key.value,
      partitionBy: ui.partition.value ? [ui.partition.value] : [],
      tableVersion: ui.version.value === '9' ? 9 : 6,
      schema: avroSchemaOf(this.columns, `${name}_record`),
      ...(ui.ordering.value ? { orderingField: ui.ordering.value } : {}),
    };
  }
}
