// Small DOM helpers for the demo: element creation, HTML tables of JSON-encoded values, definition lists.
// No framework: every view is rebuilt from data with these.

/** Create an element with attributes (string values; `class` allowed) and children (nodes or text). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | undefined> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

/** One cell of a JSON-encoded value: text plus a class saying how to show it (number, null, boolean, json). */
export function valueCell(value: unknown): HTMLTableCellElement {
  if (value === null || value === undefined) return h('td', { class: 'null' }, 'null');
  if (typeof value === 'number') return h('td', { class: 'num' }, String(value));
  if (typeof value === 'boolean') return h('td', { class: `bool ${value}` }, String(value));
  if (typeof value === 'string') return h('td', { title: value.length > 40 ? value : undefined }, value);
  const text = JSON.stringify(value);
  return h('td', { class: 'json', title: text.length > 40 ? text : undefined }, text);
}

/** An HTML table with a header row; each body row is a list of cells (nodes, or values shown by {@link valueCell}). */
export function dataTable(columns: readonly string[], rows: readonly (readonly unknown[])[], className = 'data'): HTMLTableElement {
  const head = h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { scope: 'col' }, c))));
  const body = h('tbody');
  for (const row of rows) {
    body.append(h('tr', {}, ...row.map((v) => (v instanceof HTMLTableCellElement ? v : valueCell(v)))));
  }
  return h('table', { class: className }, head, body);
}

/** A definition list of label → value pairs. */
export function definitions(pairs: readonly (readonly [string, string])[]): DocumentFragment {
  const frag = document.createDocumentFragment();
  for (const [k, v] of pairs) frag.append(h('dt', {}, k), h('dd', {}, v));
  return frag;
}

/** Replace an element's content. */
export function show(target: Element, ...content: (Node | string)[]): void {
  target.replaceChildren(...content);
}

/** Format a byte count for people (`12.3 KiB`). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = -1;
  do {
    v /= 1024;
    i++;
  } while (v >= 1024 && i < units.length - 1);
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
