// The import's schema editor: one row per file column with its field name, type (of the types the import
// offers) and nullable flag, editable before the first write into a new table; and the preview of the
// file's first rows.
import { COLUMN_TYPES, type ColumnType } from './import-types.js';
import type { ImportColumn } from './import-schema.js';
import { dataTable, h, show } from './table-view.js';

/** How many rows of the file the preview shows. */
const PREVIEW_ROWS = 5;

/** Draw `columns` into `target` as an editable table; edits change the column objects in place. */
export function renderSchemaEditor(target: HTMLElement, columns: ImportColumn[], editable: boolean, onChange: () => void): void {
  const rows = columns.map((c, i) => {
    if (!editable) return [c.source, c.name, c.type ?? 'as in the file', c.nullable ? 'yes' : 'no'];
    const name = h('input', { type: 'text', value: c.name, spellcheck: 'false', 'data-testid': `import-column-name-${i}`, 'aria-label': `name of column ${c.source}` });
    name.addEventListener('input', () => {
      c.name = name.value.trim();
      onChange();
    });
    const type = h('select', { 'data-testid': `import-column-type-${i}`, 'aria-label': `type of column ${c.source}` },
      ...COLUMN_TYPES.map((t) => new Option(t, t, false, t === c.type)));
    type.addEventListener('change', () => {
      c.type = type.value as ColumnType;
      onChange();
    });
    const nullable = h('input', { type: 'checkbox', 'data-testid': `import-column-nullable-${i}`, 'aria-label': `column ${c.source} may be null` });
    nullable.checked = c.nullable;
    nullable.addEventListener('change', () => {
      c.nullable = nullable.checked;
      onChange();
    });
    return [c.source, h('td', {}, name), h('td', {}, type), h('td', {}, nullable)];
  });
  const table = dataTable(['file column', 'field', 'type', 'nullable'], rows, 'data import-schema');
  table.id = 'import-schema-table';
  show(target, table);
}

/** Draw the first rows of the file (raw values as read). */
export function renderPreview(target: HTMLElement, columns: readonly string[], rows: readonly Record<string, unknown>[]): void {
  const text = (v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Date ? v.toISOString() : v ?? null);
  const table = dataTable(columns, rows.slice(0, PREVIEW_ROWS).map((r) => columns.map((c) => text(r[c]))), 'data');
  table.id = 'import-preview-table';
  show(target, table);
}
