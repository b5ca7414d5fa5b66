// The demo page: creates, lists and writes Hudi tables in OPFS, or opens one read-only from a folder, a .zip
// or a drop; renders config, timeline, file slices and rows of snapshot / time-travel / incremental queries.
import {
  createTable, fileListStorage, isLakeletError, jsonRow, openTable, tableStorage, zipStorage,
  type FileListEntry, type Instant, type FileSlice, type Table,
} from '../src/index.js';
import { readDrop } from './drop.js';
import { checkTableName, deleteTable, listTables, opfsAvailable, storageOf, type StoredTable } from './opfs-tables.js';
import { dataTable, definitions, formatBytes, h, show } from './table-view.js';
import { TRIPS_KEYS, TRIPS_SCHEMA } from './trips.js';
import { WritePanel } from './write-panel.js';

/** How many rows the page shows. */
const ROW_LIMIT = 50;
/** The "from" of an incremental read of everything. */
const TIMELINE_START = '00000000000000000';

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`demo: #${id} missing from index.html`);
  return el as T;
};

const ui = {
  folderInput: $<HTMLInputElement>('folder-input'),
  zipInput: $<HTMLInputElement>('zip-input'),
  status: $('status'),
  error: $('error'),
  errorCode: $('error-code'),
  errorMessage: $('error-message'),
  errorContext: $<HTMLPreElement>('error-context'),
  view: $('view'),
  config: $('config'),
  timeline: $('timeline'),
  query: $<HTMLFormElement>('query'),
  mode: $<HTMLSelectElement>('mode'),
  asOf: $<HTMLSelectElement>('as-of'),
  readOptimized: $<HTMLInputElement>('read-optimized'),
  from: $<HTMLSelectElement>('from'),
  to: $<HTMLSelectElement>('to'),
  columns: $<HTMLInputElement>('columns'),
  where: $<HTMLInputElement>('where'),
  metaColumns: $<HTMLInputElement>('meta-columns'),
  rowsCaption: $('rows-caption'),
  rows: $('rows'),
  slicesCaption: $('slices-caption'),
  slices: $('slices'),
  tables: $('tables'),
  tablesNote: $('tables-note'),
  tablesList: $('tables-list'),
  create: $<HTMLFormElement>('create'),
  createName: $<HTMLInputElement>('create-name'),
  createType: $<HTMLSelectElement>('create-type'),
};

let table: Table | undefined;
/** The OPFS table open (its folder name under lakelet-demo/), undefined for read-only sources. */
let openOpfsName: string | undefined;
/** Bumped by every open and query, so a slow earlier result never overwrites a later one. */
let generation = 0;

type PageState = 'empty' | 'loading' | 'ready' | 'error';
function setState(state: PageState, status?: string): void {
  document.body.dataset.state = state;
  if (status !== undefined) ui.status.textContent = status;
}

function showError(err: unknown): void {
  const code = isLakeletError(err) ? err.code : err instanceof Error ? err.name : 'Error';
  const message = err instanceof Error ? err.message : String(err);
  ui.errorCode.textContent = code;
  ui.errorMessage.textContent = message;
  const context = isLakeletError(err) && Object.keys(err.context).length > 0
    ? JSON.stringify(err.context, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2)
    : '';
  ui.errorContext.textContent = context;
  ui.errorContext.hidden = context === '';
  ui.error.hidden = false;
  setState('error');
  console.error(err);
}

function clearError(): void {
  ui.error.hidden = true;
}

// ---- opening -------------------------------------------------------------------------------------------

/** Open a table: `opfsName` for a writable table in OPFS, else read-only (`what` says from where). */
async function open(what: string, opener: () => Promise<Table>, opfsName?: string): Promise<void> {
  if (writes.busy) return;
  const mine = ++generation;
  clearError();
  setState('loading', `Opening ${what}…`);
  try {
    const opened = await opener();
    if (mine !== generation) return;
    table = opened;
    openOpfsName = opfsName;
    renderTable(opened);
    renderTableList();
    ui.view.hidden = false;
    await writes.open(opened, opfsName ? undefined
      : `Read-only: ${what} was opened from a file picker or a drop. Create or open a table under “Tables in this browser” to write.`);
    await runQuery();
  } catch (err) {
    if (mine !== generation) return;
    ui.status.textContent = `Could not open ${what}.`;
    showError(err);
  }
}

function openZip(file: File): Promise<void> {
  return open(file.name, async () => openTable(await tableStorage(zipStorage(new Uint8Array(await file.arrayBuffer()), { label: file.name }))));
}

function openFolder(name: string, files: Iterable<File | FileListEntry>): Promise<void> {
  return open(name, async () => openTable(await tableStorage(fileListStorage(files, { label: name }))));
}

ui.zipInput.addEventListener('change', () => {
  const file = ui.zipInput.files?.[0];
  if (file) void openZip(file);
  ui.zipInput.value = '';
});

ui.folderInput.addEventListener('change', () => {
  const files = Array.from(ui.folderInput.files ?? []);
  ui.folderInput.value = '';
  if (files.length === 0) return;
  const name = files[0]?.webkitRelativePath.split('/')[0] || 'folder';
  void openFolder(name, files);
});

window.addEventListener('dragover', (e) => {
  e.preventDefault();
  document.body.classList.add('dragging');
});
window.addEventListener('dragleave', (e) => {
  if (e.relatedTarget === null) document.body.classList.remove('dragging');
});
window.addEventListener('drop', (e) => {
  e.preventDefault();
  document.body.classList.remove('dragging');
  if (!e.dataTransfer) return;
  readDrop(e.dataTransfer).then((dropped) => {
    if (!dropped) return;
    if (dropped.kind === 'file') return openZip(dropped.file);
    return openFolder(dropped.name, dropped.files);
  }).catch(showError);
});

window.addEventListener('unhandledrejection', (e) => showError(e.reason));
window.addEventListener('error', (e) => showError(e.error ?? e.message));

// ---- the table: config, timeline, query controls ---------------------------------------------------------

function renderTable(t: Table): void {
  renderConfig(t);
  renderInstantOptions(t);
  ui.mode.value = 'snapshot';
  ui.readOptimized.checked = false;
  const mor = t.config.tableType === 'MERGE_ON_READ';
  ui.readOptimized.disabled = !mor;
  ui.readOptimized.parentElement?.setAttribute('title', mor ? 'read base files only, skip log files' : 'copy-on-write: same as a snapshot');
  ui.columns.value = '';
  ui.where.value = '';
  syncMode();
}

function renderConfig(t: Table): void {
  const c = t.config;
  const list = (xs: readonly string[]) => (xs.length > 0 ? xs.join(', ') : '—');
  const pairs: [string, string][] = [
    ['name', c.databaseName ? `${c.databaseName}.${c.name}` : c.name],
    ['type', c.tableType],
    ['version', `${c.version} (timeline layout ${c.timelineLayoutVersion})`],
    ['record key', list(c.recordKeyFields)],
    ['ordering', list(c.orderingFields)],
    ['partitions', c.partitionFields.length > 0 ? `${c.partitionFields.join(', ')}${c.hiveStylePartitioning ? ' (hive-style)' : ''}` : 'none'],
    ['merge mode', c.recordMergeMode],
    ['key generator', c.keyGenerator ?? c.keyGeneratorType],
    ['meta fields', c.populateMetaFields ? 'yes' : 'no'],
    ['source', t.storage.label],
  ];
  show(ui.config, definitions(pairs));
  renderTimeline(t.timeline, undefined);
}

/** The instant pickers of the query form, keeping each selection that still exists. */
function renderInstantOptions(t: Table): void {
  const commits = t.commits;
  const option = (i: Instant) => new Option(`${i.requestedTime} · ${i.action}`, i.requestedTime);
  const fill = (select: HTMLSelectElement, first: HTMLOptionElement) => {
    const keep = select.value;
    select.replaceChildren(first, ...commits.map(option));
    if (commits.some((i) => i.requestedTime === keep)) select.value = keep;
  };
  fill(ui.asOf, new Option('latest', ''));
  fill(ui.from, new Option('start of timeline', TIMELINE_START));
  fill(ui.to, new Option('latest', ''));
}

function renderTimeline(instants: readonly Instant[], selected: string | undefined): void {
  if (instants.length === 0) {
    show(ui.timeline, h('p', { class: 'caption' }, 'The timeline is empty: no commits yet.'));
    return;
  }
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
    tr.classList.toggle('selected', i.requestedTime === selected);
  });
  show(ui.timeline, t);
}

function syncMode(): void {
  const mode = ui.mode.value;
  for (const g of ui.query.querySelectorAll<HTMLElement>('.group[data-mode]')) g.hidden = g.dataset.mode !== mode;
}

ui.mode.addEventListener('change', () => {
  syncMode();
  void runQuery();
});
for (const control of [ui.asOf, ui.readOptimized, ui.from, ui.to, ui.metaColumns]) {
  control.addEventListener('change', () => void runQuery());
}
ui.query.addEventListener('submit', (e) => {
  e.preventDefault();
  void runQuery();
});

// ---- the query: rows and file slices ----------------------------------------------------------------------

/** `a, b` → columns; empty → undefined (all). */
function parseColumns(text: string): string[] | undefined {
  const cols = text.split(',').map((s) => s.trim()).filter(Boolean);
  return cols.length > 0 ? cols : undefined;
}

/** `a > 1 AND b = 'x'` → filter strings, parsed by the library. */
function parseWhere(text: string): string[] {
  return text.split(/\s+and\s+/i).map((s) => s.trim()).filter(Boolean);
}

async function runQuery(): Promise<void> {
  const t = table;
  if (!t) return;
  const mine = ++generation;
  clearError();
  setState('loading', `Reading ${t.storage.label}…`);
  try {
    const incremental = ui.mode.value === 'incremental';
    const asOf = incremental ? ui.to.value || undefined : ui.asOf.value || undefined;
    const readOptimized = !incremental && ui.readOptimized.checked;
    const schema = await t.avroSchema({ asOf });
    let columns = parseColumns(ui.columns.value);
    if (!columns && !ui.metaColumns.checked) {
      // Of the meta columns, only the commit time by default: it is what time travel and incremental reads change.
      columns = schema.fields.map((f) => f.name).filter((n) => n === '_hoodie_commit_time' || !n.startsWith('_hoodie_'));
    }
    const from = ui.from.value || TIMELINE_START;
    const common = { columns, filters: parseWhere(ui.where.value), limit: ROW_LIMIT + 1 };
    const rows: Record<string, unknown>[] = [];
    const iter = incremental
      ? t.rows({ ...common, from, to: asOf })
      : t.rows({ ...common, asOf, readOptimized });
    for await (const row of iter) rows.push(jsonRow(row, schema));
    const slices = await t.fileSlices(incremental ? { from, to: asOf, filters: common.filters } : { asOf, readOptimized, filters: common.filters });
    if (mine !== generation) return;

    const more = rows.length > ROW_LIMIT;
    const shown = rows.slice(0, ROW_LIMIT);
    const names = columns ?? schema.fields.map((f) => f.name);
    const what = incremental
      ? `incremental (${from === TIMELINE_START ? 'start' : from}, ${asOf ?? 'latest'}]`
      : `${readOptimized ? 'read-optimized' : 'snapshot'} as of ${asOf ?? 'latest'}`;
    ui.rowsCaption.textContent = shown.length === 0
      ? `${what}: no rows.`
      : `${what}: ${more ? `first ${ROW_LIMIT}` : shown.length} row${shown.length === 1 ? '' : 's'}${more ? ' (more not shown)' : ''}.`;
    const rowsTable = dataTable(names, shown.map((r) => names.map((n) => r[n] ?? null)), 'data rows');
    rowsTable.id = 'rows-table';
    show(ui.rows, rowsTable);
    renderSlices(slices, what);
    renderTimeline(t.timeline, asOf ?? t.commits.at(-1)?.requestedTime);
    setState('ready', `Opened ${t.storage.label}: ${t.config.name}, ${t.commits.length} commit${t.commits.length === 1 ? '' : 's'}.`);
  } catch (err) {
    if (mine !== generation) return;
    show(ui.rows);
    ui.rowsCaption.textContent = 'The query failed.';
    ui.status.textContent = `Opened ${t.storage.label}; the last query failed.`;
    showError(err);
  }
}

function renderSlices(slices: readonly FileSlice[], what: string): void {
  ui.slicesCaption.textContent = `${what}: reads ${slices.length} file slice${slices.length === 1 ? '' : 's'}.`;
  const logs = (s: FileSlice) => {
    const td = h('td', { class: 'files' });
    if (s.logFiles.length === 0) td.append(h('span', { class: 'null' }, '—'));
    for (const l of s.logFiles) td.append(h('div', { title: l.path }, `${l.name} (${formatBytes(l.size)})`));
    return td;
  };
  const base = (s: FileSlice) => s.baseFile
    ? h('td', { class: 'files', title: s.baseFile.path }, `${s.baseFile.name} (${formatBytes(s.baseFile.size)})`)
    : h('td', { class: 'null' }, 'log-only');
  show(ui.slices, dataTable(['partition', 'file id', 'base instant', 'base file', 'log files'], slices.map((s) => [
    s.partitionPath === '' ? '(none)' : s.partitionPath, s.fileId, s.baseInstantTime, base(s), logs(s),
  ]), 'data slices'));
}

// ---- tables in OPFS: list, create, open, delete ----------------------------------------------------------

let stored: StoredTable[] = [];

const writes = new WritePanel({
  begin(what) {
    clearError();
    setState('loading', `${what} on ${table?.config.name ?? 'the table'}…`);
  },
  async done(t) {
    if (t !== table) return;
    renderConfig(t);
    // After a write, show the latest snapshot (or the incremental read up to it).
    renderInstantOptions(t);
    ui.asOf.value = '';
    ui.to.value = '';
    await runQuery();
  },
  failed(t, err) {
    if (t === table) renderTimeline(t.timeline, undefined);
    showError(err);
  },
});

async function refreshTableList(): Promise<void> {
  if (!opfsAvailable()) {
    ui.tablesNote.textContent = 'This browser has no Origin Private File System (navigator.storage.getDirectory): tables can only be opened read-only.';
    for (const c of ui.create.elements) (c as HTMLInputElement).disabled = true;
    ui.tables.dataset.listed = 'true';
    return;
  }
  try {
    stored = await listTables();
  } catch (err) {
    showError(err);
  }
  renderTableList();
  suggestName();
  ui.tables.dataset.listed = 'true';
}

/** Offer a free name in the create form (`trips`, `trips_2`, …) unless the user typed their own. */
function suggestName(): void {
  const taken = new Set(stored.map((s) => s.name));
  const typed = ui.createName.value.trim();
  if (!taken.has(typed) || !/^trips(_\d+)?$/.test(typed)) return;
  let n = 2;
  while (taken.has(`trips_${n}`)) n++;
  ui.createName.value = `trips_${n}`;
}

function renderTableList(): void {
  if (stored.length === 0) {
    show(ui.tablesList, h('p', { class: 'caption' }, 'No tables yet: create one below.'));
    return;
  }
  const actions = (s: StoredTable) => h('td', { class: 'actions' },
    h('button', { type: 'button', 'data-action': 'open', 'data-name': s.name }, s.name === openOpfsName ? 'Reopen' : 'Open'),
    h('button', { type: 'button', class: 'danger', 'data-action': 'delete', 'data-name': s.name }, 'Delete'));
  const t = dataTable(['name', 'type', 'last changed', ''], stored.map((s) => [
    s.name, s.type === 'MERGE_ON_READ' ? 'merge-on-read' : s.type === 'COPY_ON_WRITE' ? 'copy-on-write' : s.type,
    new Date(s.lastModified).toLocaleString(), actions(s),
  ]), 'data stored');
  stored.forEach((s, n) => {
    const tr = t.tBodies[0]?.rows[n];
    if (!tr) return;
    tr.dataset.table = s.name;
    tr.classList.toggle('selected', s.name === openOpfsName);
  });
  show(ui.tablesList, t);
}

function openStored(name: string): Promise<void> {
  return open(`lakelet-demo/${name}`, () => openTable(storageOf(name)), name);
}

async function removeStored(name: string): Promise<void> {
  if (writes.busy || !confirm(`Delete the table “${name}” and all its files from this browser?`)) return;
  try {
    await deleteTable(name);
    if (openOpfsName === name) {
      ++generation;
      table = undefined;
      openOpfsName = undefined;
      ui.view.hidden = true;
      clearError();
      setState('empty', `Deleted ${name}. No table open.`);
    }
  } catch (err) {
    showError(err);
  }
  await refreshTableList();
}

ui.tablesList.addEventListener('click', (e) => {
  const button = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-action]');
  const name = button?.dataset.name;
  if (!button || !name) return;
  if (button.dataset.action === 'open') void openStored(name);
  else void removeStored(name);
});

ui.create.addEventListener('submit', (e) => {
  e.preventDefault();
  const name = ui.createName.value.trim();
  const problem = checkTableName(name);
  if (problem) {
    ui.createName.setCustomValidity(problem);
    ui.createName.reportValidity();
    return;
  }
  const type = ui.createType.value === 'MERGE_ON_READ' ? 'MERGE_ON_READ' : 'COPY_ON_WRITE';
  void open(`lakelet-demo/${name}`, async () => {
    const created = await createTable(storageOf(name), { name, type, ...TRIPS_KEYS, schema: TRIPS_SCHEMA });
    await refreshTableList();
    return created;
  }, name);
});
ui.createName.addEventListener('input', () => ui.createName.setCustomValidity(''));

setState('empty');
void refreshTableList();
