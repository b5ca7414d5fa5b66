// "Data in", whole tables: a Hudi table folder or `.zip` (one Spark wrote, or a lakelet export) is copied into
// the connected store with `replicate`, which publishes each instant only after its files, so the copy is a
// complete, writable table there; then it is registered in the store's catalog and opened.
import { fileListStorage, LakeletError, openTable, registerTable, replicate, tableStorage, zipStorage, type FileListEntry, type ReplicateProgress, type Storage } from '../src/index.js';
import type { DataHost } from './data-host.js';
import { byId, clearError, plural, setState, showError } from './page.js';
import { checkTableName } from './stores.js';
import { formatBytes } from './table-view.js';

/** A free table name like `name`: made a valid folder name, `_2`, `_3`… appended while taken. */
export function freeTableName(name: string, taken: ReadonlySet<string>): string {
  let base = name.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=\d)/, '_').slice(0, 60);
  if (checkTableName(base)) base = 'imported';
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}_${n}`)) n++;
  return `${base}_${n}`;
}

export class TableImport {
  private readonly ui = {
    row: byId('import-progress-row'),
    progress: byId<HTMLProgressElement>('import-progress'),
    phase: byId('import-phase'),
    summary: byId('import-summary'),
  };
  private running = false;

  constructor(private readonly host: DataHost) {}

  /** Copy the table in a `.zip` into the store. */
  fromZip(file: File): Promise<void> {
    return this.run(file.name, async () => tableStorage(zipStorage(new Uint8Array(await file.arrayBuffer()), { label: file.name })));
  }

  /** Copy the table in a picked or dropped folder into the store. */
  fromFolder(name: string, files: Iterable<File | FileListEntry>): Promise<void> {
    return this.run(name, () => tableStorage(fileListStorage(files, { label: name })));
  }

  private async run(what: string, sourceOf: () => Promise<Storage>): Promise<void> {
    const { host, ui } = this;
    if (this.running || host.ops.busy) return;
    this.running = true;
    clearError();
    setState('loading', `Importing the table in ${what}…`);
    try {
      const store = host.store();
      if (!store?.writable) throw new LakeletError('UNSUPPORTED', `import: ${store?.label ?? 'no store'} is not writable; connect OPFS, IndexedDB or S3 to import a table`, {});
      const source = await sourceOf();
      const config = (await openTable(source)).config;
      const name = freeTableName(config.name, new Set((await store.list()).map((t) => t.name)));
      ui.row.hidden = false;
      ui.progress.removeAttribute('value');
      ui.phase.textContent = `copying ${what} into ${store.label} as ${name}…`;
      const onProgress = (p: ReplicateProgress) => {
        if (p.filesTotal > 0) ui.progress.value = p.filesDone / p.filesTotal;
        ui.phase.textContent = `${p.phase}: ${p.filesDone}/${p.filesTotal} files, ${formatBytes(p.bytesDone)}`;
      };
      const result = await replicate(source, store.tableStorage(name), { onProgress });
      await registerTable(store.root, name, { name }); // the folder's name (its hoodie.table.name may be taken)
      ui.summary.dataset.table = name;
      ui.summary.textContent = `Imported the table in ${what} into ${store.label} as ${name}: ${plural(result.published.length, 'instant')}, `
        + `${plural(result.filesCopied, 'file')} (${formatBytes(result.bytesCopied)}).`;
      this.running = false;
      await host.openStored(store, name);
    } catch (err) {
      showError(err);
    } finally {
      this.running = false;
      ui.row.hidden = true;
    }
  }
}
