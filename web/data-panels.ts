// The "Data in" and "Data out" panels wired to the page: the file picker and the table folder / `.zip` pickers,
// the import drop zone (a rows file goes to the import, a folder or `.zip` to the table import; drops here do
// not open tables read-only as the page's own drop zone does), the row editor and the exports.
import type { DataHost } from './data-host.js';
import { readDrop } from './drop.js';
import { ExportPanel } from './export-panel.js';
import { importFormatOf } from './import-file.js';
import { ImportPanel } from './import-panel.js';
import { TableImport } from './import-table.js';
import { byId, showError } from './page.js';
import { RowEditor } from './row-editor.js';

/** Build the data panels on `host`. */
export function wireDataPanels(host: DataHost): void {
  const rows = new ImportPanel(host);
  const tables = new TableImport(host);
  new RowEditor(host);
  new ExportPanel(host);

  const fileInput = byId<HTMLInputElement>('import-file');
  const zipInput = byId<HTMLInputElement>('import-table-zip');
  const folderInput = byId<HTMLInputElement>('import-table-folder');
  const picked = (input: HTMLInputElement) => {
    const files = Array.from(input.files ?? []);
    input.value = '';
    return files;
  };
  fileInput.addEventListener('change', () => {
    const [file] = picked(fileInput);
    if (file) void rows.load(file);
  });
  zipInput.addEventListener('change', () => {
    const [file] = picked(zipInput);
    if (file) void tables.fromZip(file);
  });
  folderInput.addEventListener('change', () => {
    const files = picked(folderInput);
    if (files.length > 0) void tables.fromFolder(files[0]?.webkitRelativePath.split('/')[0] || 'folder', files);
  });

  const zone = byId('import-drop');
  zone.addEventListener('dragover', () => zone.classList.add('over'));
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    e.stopPropagation(); // the page's drop handler would open it read-only instead
    zone.classList.remove('over');
    document.body.classList.remove('dragging');
    if (!e.dataTransfer) return;
    readDrop(e.dataTransfer).then((dropped) => {
      if (!dropped) return;
      if (dropped.kind === 'folder') void tables.fromFolder(dropped.name, dropped.files);
      else if (importFormatOf(dropped.file.name)) void rows.load(dropped.file);
      else void tables.fromZip(dropped.file);
    }).catch(showError);
  });
}
