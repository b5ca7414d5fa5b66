// The store chooser and the catalog of tables in the chosen store: OPFS and IndexedDB connect at once, an S3
// bucket or an HTTP URL on "Connect". S3 settings stay in this object for the tab (the secret field is
// emptied once connected); nothing of them reaches storage, localStorage or the URL.
import { LakeletError } from '../src/index.js';
import { byId, plural, showError } from './page.js';
import { httpStore, indexedDbStore, opfsAvailable, opfsStore, s3Store, type DemoStore, type S3Settings, type StoreKind, type StoredTable } from './stores.js';
import { dataTable, h, show } from './table-view.js';

/** What the page does with the store and its tables. */
export interface StoreHost {
  /** A store was connected (its tables are listed). */
  connected(store: DemoStore, tables: readonly StoredTable[]): void;
  open(store: DemoStore, table: StoredTable): void;
  remove(store: DemoStore, table: StoredTable): Promise<void>;
  /** The path of the table open from this store, if any (its row is marked). */
  openPath(store: DemoStore): string | undefined;
}

const NOTES: Record<StoreKind, string> = {
  opfs: 'The Origin Private File System of this browser, under lakelet-demo/: tables survive reloads and never leave this device.',
  indexeddb: 'The IndexedDB database lakelet-demo of this browser: tables survive reloads and never leave this device.',
  s3: 'An S3-compatible bucket (AWS S3, R2, MinIO…; it needs CORS for this page). The keys stay in this tab\'s memory only.',
  http: 'Files served over HTTP (read-only): a table\'s URL, or a folder with a lakelet catalog.',
};

export class StorePanel {
  private readonly ui = {
    section: byId('tables'),
    form: byId<HTMLFormElement>('store-form'),
    kind: byId<HTMLSelectElement>('store-kind'),
    connect: byId<HTMLButtonElement>('store-connect'),
    s3: { endpoint: byId<HTMLInputElement>('s3-endpoint'), bucket: byId<HTMLInputElement>('s3-bucket'), region: byId<HTMLInputElement>('s3-region'),
      accessKeyId: byId<HTMLInputElement>('s3-access-key'), secretAccessKey: byId<HTMLInputElement>('s3-secret'), prefix: byId<HTMLInputElement>('s3-prefix') },
    httpUrl: byId<HTMLInputElement>('http-url'),
    note: byId('tables-note'),
    list: byId('tables-list'),
  };
  /** The connected store. */
  store: DemoStore | undefined;
  private tables: StoredTable[] = [];
  /** The S3 settings of this tab (kept so switching stores and back needs no retyping). */
  private s3: S3Settings | undefined;
  /** Counts connects: only the latest one's result is shown (the page's first OPFS connect may finish after a switch). */
  private connects = 0;
  /** Connects finished, stale ones included (the section's `data-settled`, for tests waiting on a superseded one). */
  private settled = 0;

  constructor(private readonly host: StoreHost) {
    const { ui } = this;
    ui.kind.addEventListener('change', () => {
      this.syncKind();
      const kind = ui.kind.value as StoreKind;
      if (kind === 'opfs' || kind === 'indexeddb' || (kind === 's3' && this.s3)) void this.connect();
    });
    ui.form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.connect();
    });
    ui.list.addEventListener('click', (e) => {
      const button = (e.target as HTMLElement).closest<HTMLButtonElement>('button[data-action]');
      const table = this.tables.find((t) => t.name === button?.dataset.name);
      if (!button || !table || !this.store) return;
      if (button.dataset.action === 'open') host.open(this.store, table);
      else void this.remove(table);
    });
    if (!opfsAvailable()) ui.kind.value = 'indexeddb';
    this.syncKind();
  }

  private syncKind(): void {
    const kind = this.ui.kind.value as StoreKind;
    for (const g of this.ui.form.querySelectorAll<HTMLElement>('[data-store]')) g.hidden = g.dataset.store !== kind;
    this.ui.connect.hidden = kind === 'opfs' || kind === 'indexeddb';
    this.ui.note.textContent = NOTES[kind];
  }

  private settings(): S3Settings {
    const v = (i: HTMLInputElement) => i.value.trim();
    const { s3 } = this.ui;
    const secret = s3.secretAccessKey.value || this.s3?.secretAccessKey || '';
    return { endpoint: v(s3.endpoint), bucket: v(s3.bucket), region: v(s3.region), accessKeyId: v(s3.accessKeyId), secretAccessKey: secret, prefix: v(s3.prefix) };
  }

  private make(kind: StoreKind): DemoStore {
    if (kind === 'opfs') return opfsStore();
    if (kind === 'indexeddb') return indexedDbStore();
    if (kind === 'http') return httpStore(this.ui.httpUrl.value.trim());
    return s3Store(this.settings());
  }

  /** Connect the chosen store and list its tables. */
  async connect(): Promise<void> {
    const { ui } = this;
    const kind = ui.kind.value as StoreKind;
    const attempt = ++this.connects;
    delete ui.section.dataset.listed;
    try {
      await this.list(kind, attempt);
    } finally {
      ui.section.dataset.settled = String(++this.settled);
    }
  }

  /** List the tables of `kind` for connect number `attempt`; a superseded attempt changes nothing. */
  private async list(kind: StoreKind, attempt: number): Promise<void> {
    const { ui } = this;
    try {
      if (kind === 's3' && Object.entries(this.settings()).some(([k, v]) => k !== 'prefix' && k !== 'region' && v === '')) {
        throw new LakeletError('INVALID_ARGUMENT', 'S3: the endpoint, bucket, access key id and secret access key are needed', { field: 's3' });
      }
      if (kind === 'http' && !/^https?:\/\//.test(ui.httpUrl.value.trim())) throw new LakeletError('INVALID_ARGUMENT', 'HTTP: an http:// or https:// URL is needed', { field: 'url', value: ui.httpUrl.value });
      const store = this.make(kind);
      const tables = await store.list();
      if (attempt !== this.connects) return; // a later connect (another store chosen meanwhile) wins
      this.store = store;
      this.tables = tables;
      if (kind === 's3') {
        this.s3 = this.settings();
        ui.s3.secretAccessKey.value = '';
        ui.s3.secretAccessKey.placeholder = 'kept in this tab';
      }
      ui.section.dataset.store = kind;
      this.host.connected(store, tables);
      this.render();
    } catch (err) {
      if (attempt !== this.connects) return;
      showError(err);
    }
    ui.section.dataset.listed = 'true';
  }

  /** List the store's tables again (after a create or a write). */
  async refresh(): Promise<void> {
    const store = this.store;
    if (!store) return;
    try {
      const tables = await store.list();
      if (store !== this.store) return; // another store was connected meanwhile: its own list stands
      this.tables = tables;
    } catch (err) {
      if (store !== this.store) return;
      showError(err);
    }
    this.render();
  }

  /** Names taken in this store. */
  names(): Set<string> {
    return new Set(this.tables.map((t) => t.name));
  }

  private async remove(table: StoredTable): Promise<void> {
    const store = this.store;
    if (!store || !confirm(`Delete the table “${table.name}” and all its files from ${store.label}?`)) return;
    await this.host.remove(store, table);
    await this.refresh();
  }

  /** Draw the table list (the open table's row marked). */
  render(): void {
    const store = this.store;
    if (!store) return;
    if (this.tables.length === 0) {
      show(this.ui.list, h('p', { class: 'caption' }, store.writable ? `No tables in ${store.label} yet: create one below.` : `No tables found at ${store.label}.`));
      return;
    }
    const open = this.host.openPath(store);
    const actions = (t: StoredTable) => h('td', { class: 'actions' },
      h('button', { type: 'button', 'data-action': 'open', 'data-name': t.name }, t.path === open ? 'Reopen' : 'Open'),
      ...(store.writable ? [h('button', { type: 'button', class: 'danger', 'data-action': 'delete', 'data-name': t.name }, 'Delete')] : []));
    const table = dataTable(['name', 'type', 'version', 'latest instant', ''], this.tables.map((t) => [
      t.name, t.type === 'MERGE_ON_READ' ? 'merge-on-read' : t.type === 'COPY_ON_WRITE' ? 'copy-on-write' : t.type,
      t.version, t.latestInstant ?? '—', actions(t),
    ]), 'data stored');
    this.tables.forEach((t, n) => {
      const tr = table.tBodies[0]?.rows[n];
      if (!tr) return;
      tr.dataset.table = t.name;
      tr.classList.toggle('selected', t.path === open);
    });
    show(this.ui.list, h('p', { class: 'caption' }, `${plural(this.tables.length, 'table')} in ${store.label}.`), table);
  }
}
