// The demo page: wires the store chooser, the create form, the write and services panels, the query panel and
// the pictures (timeline, file layout) around the one table open, through lakelet's public API only.
import { createTable, LakeletError, openTable, registerTable, type IndexType, type Instant, type Table, type WriteOptions } from '../src/index.js';
import { commitPoints, renderCommitChart, renderSizeChart } from './charts.js';
import { CreateForm, type CreateRequest } from './create-form.js';
import { wireDataPanels } from './data-panels.js';
import { renderInstantDetails } from './instant-details.js';
import { renderLayout } from './layout-view.js';
import { wireFileOpening } from './open-files.js';
import { Operations } from './operations.js';
import { byId, clearError, isCurrent, nextGeneration, setState, showError } from './page.js';
import { QueryPanel, type QueryOutcome } from './query-panel.js';
import { ServicesPanel } from './services-panel.js';
import { StorePanel } from './store-panel.js';
import type { DemoStore, StoredTable } from './stores.js';
import { definitions, show } from './table-view.js';
import { renderTimeline } from './timeline-view.js';
import { WritePanel } from './write-panel.js';
import { registerServiceWorker } from './sw-register.js';

const ui = {
  view: byId('view'),
  config: byId('config'),
  timelinePicture: byId('timeline-picture'),
  timeline: byId('timeline'),
  instant: byId('instant'),
  layout: byId('layout'),
  slicesCaption: byId('slices-caption'),
  slices: byId('slices'),
  commitChart: byId('commit-chart'),
  sizeChart: byId('size-chart'),
};

/** The open table and, when it came from the chosen store, where (writable unless the store is read-only). */
let current: { table: Table; store?: DemoStore; path?: string } | undefined;
/** The index each table was created with in this tab (a write option: Hudi keeps it in the writer's config). */
const indexes = new Map<string, IndexType>();
/** The instant the timeline picture shows as selected. */
let selected: string | undefined;

const ops = new Operations({
  begin(what) {
    clearError();
    setState('loading', `${what} on ${current?.table.config.name ?? 'the table'}…`);
  },
  async done(t) {
    if (t !== current?.table) return;
    renderConfig(t);
    query.latest(t);
    selected = undefined;
    await query.run();
    void stores.refresh();
  },
  failed(t, err) {
    if (t === current?.table) drawTimeline(t);
    showError(err);
  },
});

/** Every write of the open table: its index (when this tab created it) and a catalog entry kept fresh. */
function writeOptions(t: Table): WriteOptions {
  const index = indexes.get(t.storage.label);
  return { ...(index ? { index } : {}), ...(current?.store?.writable ? { catalogSync: true } : {}) };
}

const writes = new WritePanel(ops, writeOptions);
const services = new ServicesPanel(ops);
const query = new QueryPanel((t, outcome: QueryOutcome) => {
  if (t !== current?.table) return;
  // The next compaction's and clean's marks (dry runs of the table as it is now) only on the latest snapshot.
  renderLayout(ui.layout, ui.slices, ui.slicesCaption, outcome.slices, outcome.what, outcome.asOf === undefined ? t : undefined);
  renderSizeChart(ui.sizeChart, outcome.slices);
  void drawCommitChart(t);
  selected ??= outcome.asOf ?? t.commits.at(-1)?.requestedTime;
  drawTimeline(t);
});

/** The commits the commit chart shows (it is redrawn only when they change). */
let charted = '';
async function drawCommitChart(t: Table): Promise<void> {
  const key = `${t.storage.label} ${t.commits.map((i) => i.requestedTime).join(',')}`;
  if (key === charted) return;
  charted = key;
  try {
    const points = await commitPoints(t);
    if (t === current?.table && key === charted) renderCommitChart(ui.commitChart, points);
  } catch (err) {
    charted = '';
    showError(err);
  }
}

function drawTimeline(t: Table): void {
  renderTimeline(ui.timelinePicture, ui.timeline, t.timeline, { selected, onSelect: (i) => void selectInstant(t, i) });
}

async function selectInstant(t: Table, instant: Instant): Promise<void> {
  selected = instant.requestedTime;
  drawTimeline(t);
  try {
    await renderInstantDetails(ui.instant, t, instant);
  } catch (err) {
    showError(err);
  }
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
    ['index', indexes.get(t.storage.label) ?? 'BLOOM (default; the index is a write option)'],
    ['source', t.storage.label],
  ];
  show(ui.config, definitions(pairs));
}

/** Open a table: from `store` at `path` (writable when the store is), else read-only (`what` says from where). */
async function open(what: string, opener: () => Promise<Table>, from?: { store: DemoStore; path: string }): Promise<void> {
  if (ops.busy) return;
  const mine = nextGeneration();
  clearError();
  setState('loading', `Opening ${what}…`);
  try {
    const table = await opener();
    if (!isCurrent(mine)) return;
    current = { table, ...from };
    selected = undefined;
    renderConfig(table);
    show(ui.instant);
    drawTimeline(table);
    stores.render();
    ui.view.hidden = false;
    const writable = from?.store.writable === true;
    ops.open(writable ? table : undefined);
    services.reset();
    await writes.open(table, writable ? undefined : from
      ? `Read-only: ${from.store.label} is a read-only store.`
      : `Read-only: ${what} was opened from a file picker or a drop. Create or open a table in a store above to write.`);
    query.open(table);
    await query.run();
  } catch (err) {
    if (!isCurrent(mine)) return;
    byId('status').textContent = `Could not open ${what}.`;
    showError(err);
  }
}

const stores = new StorePanel({
  connected(store, tables) {
    create.enable(store.writable);
    create.suggestName(new Set(tables.map((t) => t.name)));
  },
  open(store, t: StoredTable) {
    void open(`${store.label} ${t.name}`, () => openTable(store.tableStorage(t.path)), { store, path: t.path });
  },
  async remove(store, t) {
    if (ops.busy) return;
    try {
      await store.remove(t);
      if (current?.store === store && current.path === t.path) {
        nextGeneration();
        current = undefined;
        ops.open(undefined);
        ui.view.hidden = true;
        clearError();
        setState('empty', `Deleted ${t.name}. No table open.`);
      }
    } catch (err) {
      showError(err);
    }
  },
  openPath: (store) => (current?.store === store ? current.path : undefined),
});

/** Create the table `options.name` in `store` and open it (the create form and the import). */
function createIn(store: DemoStore, options: CreateRequest['options'], index: IndexType): Promise<void> {
  const { name } = options;
  return open(`${store.label} ${name}`, async () => {
    const storage = store.tableStorage(name);
    if (stores.names().has(name)) throw new LakeletError('CONFLICT', `${store.label} already has a table named ${JSON.stringify(name)}`, { value: name });
    const created = await createTable(storage, options);
    indexes.set(storage.label, index);
    await registerTable(store.root, name);
    await stores.refresh();
    create.suggestName(stores.names());
    return created;
  }, { store, path: name });
}

const create = new CreateForm((request: CreateRequest) => {
  if (stores.store) void createIn(stores.store, request.options, request.index);
});

wireDataPanels({
  ops, writeOptions,
  store: () => stores.store,
  table: () => current?.table,
  async create(store, options) {
    await createIn(store, options, options.index ?? 'BLOOM');
    return current?.store === store && current.path === options.name && ops.table === current.table;
  },
  async openStored(store, path) {
    await stores.refresh();
    await open(`${store.label} ${path}`, () => openTable(store.tableStorage(path)), { store, path });
  },
});

wireFileOpening((what, opener) => void open(what, opener));
window.addEventListener('unhandledrejection', (e) => showError(e.reason));
window.addEventListener('error', (e) => showError(e.error ?? e.message));

setState('empty');
void stores.connect();
registerServiceWorker();
