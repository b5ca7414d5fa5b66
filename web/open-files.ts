// Opening a table read-only from files: the folder picker, the .zip picker, and folders or a .zip dropped
// onto the page (each becomes a Storage: `fileListStorage` or `zipStorage`, then `tableStorage` finds the table).
import { fileListStorage, openTable, tableStorage, zipStorage, type FileListEntry, type Table } from '../src/index.js';
import { readDrop } from './drop.js';
import { byId, showError } from './page.js';

/** Opens a read-only table: `what` says from where. */
export type ReadOnlyOpener = (what: string, opener: () => Promise<Table>) => void;

/** Wire the pickers and the drop zone to `open`. */
export function wireFileOpening(open: ReadOnlyOpener): void {
  const zipInput = byId<HTMLInputElement>('zip-input');
  const folderInput = byId<HTMLInputElement>('folder-input');
  const openZip = (file: File) => open(file.name, async () =>
    openTable(await tableStorage(zipStorage(new Uint8Array(await file.arrayBuffer()), { label: file.name }))));
  const openFolder = (name: string, files: Iterable<File | FileListEntry>) => open(name, async () =>
    openTable(await tableStorage(fileListStorage(files, { label: name }))));

  zipInput.addEventListener('change', () => {
    const file = zipInput.files?.[0];
    if (file) openZip(file);
    zipInput.value = '';
  });
  folderInput.addEventListener('change', () => {
    const files = Array.from(folderInput.files ?? []);
    folderInput.value = '';
    if (files.length === 0) return;
    openFolder(files[0]?.webkitRelativePath.split('/')[0] || 'folder', files);
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
      if (dropped.kind === 'file') openZip(dropped.file);
      else openFolder(dropped.name, dropped.files);
    }).catch(showError);
  });
}
