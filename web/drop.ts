// Drag and drop: turns a drop into either one file (a .zip) or the files of dropped folders with their
// paths, walking directory entries with the (webkit-prefixed, but universal) File System Entry API.
import type { FileListEntry } from '../src/index.js';

/** What was dropped: a single file, or every file below the dropped folders (paths start with the folder's name). */
export type Dropped = { kind: 'file'; file: File } | { kind: 'folder'; name: string; files: FileListEntry[] };

/**
 * Read a drop. Must be called synchronously inside the `drop` handler (the items expire after it returns);
 * the returned promise resolves once the folders are walked. Undefined when nothing usable was dropped.
 */
export function readDrop(data: DataTransfer): Promise<Dropped | undefined> {
  const entries: FileSystemEntry[] = [];
  for (const item of Array.from(data.items)) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry();
    if (entry) entries.push(entry);
  }
  const single = data.files.length === 1 ? data.files[0] : undefined;
  return (async () => {
    const folders = entries.filter((e): e is FileSystemDirectoryEntry => e.isDirectory);
    if (folders.length === 0) return single ? { kind: 'file', file: single } : undefined;
    const files: FileListEntry[] = [];
    for (const folder of folders) await walk(folder, files);
    return { kind: 'folder', name: folders.map((f) => f.name).join(', '), files };
  })();
}

async function walk(dir: FileSystemDirectoryEntry, out: FileListEntry[]): Promise<void> {
  const reader = dir.createReader();
  for (;;) {
    // readEntries returns at most ~100 entries per call; an empty batch ends the listing.
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return;
    for (const entry of batch) {
      if (entry.isDirectory) {
        await walk(entry as FileSystemDirectoryEntry, out);
      } else if (entry.isFile) {
        const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
        out.push({ file, path: entry.fullPath.replace(/^\/+/, '') });
      }
    }
  }
}
