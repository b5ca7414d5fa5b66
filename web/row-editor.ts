// The row editor: a form generated from the open table's schema (one input per data field; record key and
// partition fields required), upserting that one row or deleting the record with that key, through the
// normal write path; the result (inserted / updated / deleted) is shown below it.
import { avroSchemaToJson, LakeletError, type Table } from '../src/index.js';
import type { DataHost } from './data-host.js';
import { columnTypeOf, convertValue, type ColumnType } from './import-types.js';
import { byId, plural } from './page.js';
import { h, show } from './table-view.js';

/** One field of the form. */
interface FieldInput {
  name: string;
  /** Undefined: a type the editor does not convert (the text goes to the write as it is, or JSON for nested). */
  type: ColumnType | undefined;
  nullable: boolean;
  key: boolean;
  input: HTMLInputElement;
}

export class RowEditor {
  private readonly ui = {
    section: byId('row-editor'),
    note: byId('row-editor-note'),
    form: byId<HTMLFormElement>('row-form'),
    fields: byId('row-fields'),
    upsert: byId<HTMLButtonElement>('row-upsert'),
    delete: byId<HTMLButtonElement>('row-delete'),
    result: byId('row-result'),
  };
  private fields: FieldInput[] = [];
  /** The table the form was built for. */
  private built: Table | undefined;

  constructor(private readonly host: DataHost) {
    this.ui.form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.write('upsert');
    });
    this.ui.delete.addEventListener('click', () => void this.write('delete'));
    host.ops.listeners.push(() => void this.sync());
  }

  /** Rebuild the form when another table opens; enable the buttons when a write can run. */
  private async sync(): Promise<void> {
    const t = this.host.ops.table;
    const { ui } = this;
    ui.section.hidden = !t;
    const off = !t || this.host.ops.busy;
    ui.upsert.disabled = off;
    ui.delete.disabled = off;
    if (!t || t === this.built) return;
    this.built = t;
    ui.result.textContent = '';
    const keys = new Set([...t.config.recordKeyFields, ...t.config.partitionFields]);
    const json = avroSchemaToJson(await t.avroSchema()) as { fields: { name: string; type: unknown }[] };
    this.fields = json.fields.filter((f) => !f.name.startsWith('_hoodie_')).map((f) => {
      const typed = columnTypeOf(f.type);
      const key = keys.has(f.name);
      const input = h('input', { type: 'text', name: f.name, spellcheck: 'false', 'data-testid': `row-field-${f.name}`, placeholder: typed?.type ?? 'JSON' });
      input.required = key;
      return { name: f.name, type: typed?.type, nullable: typed?.nullable ?? true, key, input };
    });
    show(ui.fields, ...this.fields.map((f) => h('label', { class: f.key ? 'key' : undefined, title: f.key ? 'record key or partition field: required' : undefined }, `${f.name}${f.key ? ' *' : ''}`, f.input)));
    ui.note.textContent = `One row of ${t.config.name}: upsert it, or delete the record with its key (* fields). Empty fields are null.`;
  }

  /** The form's row: every field, or only the key and partition fields for a delete. */
  private row(onlyKeys: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const f of this.fields) {
      if (onlyKeys && !f.key) continue;
      const text = f.input.value;
      if (f.key && text.trim() === '') throw new LakeletError('INVALID_ARGUMENT', `row editor: ${f.name} is required (a record key or partition field)`, { field: f.name });
      const at = { path: 'row editor', line: 1, column: f.name };
      if (text === '') out[f.name] = null;
      else if (f.type) out[f.name] = convertValue(text, f.type, at);
      else out[f.name] = /^[[{]/.test(text.trim()) ? JSON.parse(text) : text;
    }
    return out;
  }

  private async write(kind: 'upsert' | 'delete'): Promise<void> {
    const { host, ui } = this;
    const change = await host.ops.run(kind === 'upsert' ? 'row upsert' : 'row delete', async (t) => {
      const row = this.row(kind === 'delete');
      const options = { ...host.writeOptions(t), onProgress: host.ops.onProgress };
      const r = kind === 'upsert' ? await t.upsert([row], options) : await t.delete([row], options);
      const s = r.stats;
      ui.result.dataset.inserted = String(s.inserted);
      ui.result.dataset.updated = String(s.updated);
      ui.result.dataset.deleted = String(s.deleted);
      ui.result.textContent = `${kind === 'upsert' ? 'Upserted' : 'Delete'} in ${r.instant}: ${plural(s.inserted, 'insert')}, ${plural(s.updated, 'update')}, ${plural(s.deleted, 'delete')}.`;
      const key = this.fields.filter((f) => f.key).map((f) => `${f.name}=${f.input.value}`).join(', ');
      return { instant: r.instant, stats: s, details: `${kind} of ${key}` };
    });
    if (!change) ui.result.textContent = '';
  }
}
