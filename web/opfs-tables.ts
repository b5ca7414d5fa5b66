// The demo's tables in the Origin Private File System: one folder per table under `lakelet-demo/`, listed
// with the OPFS directory API, opened through `opfsStorage`, deleted by removing the folder.
import { opfsStorage, type OpfsStorage } from '../src/index.js';

/** The OPFS folder holding the demo's tables. */
export const DEMO_FOLDER = 'lakelet-demo';

/** A table folder found in OPFS. */
export interface StoredTable {
  name: string;
  /** `hoodie.table.type`, as written in hoodie.properties. */
  type: string;
  lastModified: number;
}

type Directory = FileSystemDirectoryHandle & { entries(): AsyncIterableIterator<[string, FileSystemHandle]> };

/** True when this browser has OPFS (`navigator.storage.getDirectory`). */
export function opfsAvailable(): boolean {
  return typeof navigator.storage?.getDirectory === 'function';
}

async function demoFolder(): Promise<Directory> {
  const root = await navigator.storage.getDirectory();
  return (await root.getDirectoryHandle(DEMO_FOLDER, { create: true })) as Directory;
}

/** Table names must be safe as folder names and as `hoodie.table.name`. */
export function checkTableName(name: string): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name)) return 'Use letters, digits and _ (starting with a letter or _), at most 64 characters.';
  return undefined;
}

/** The tables under `lakelet-demo/`: folders holding `.hoodie/hoodie.properties`, by name. */
export async function listTables(): Promise<StoredTable[]> {
  const out: StoredTable[] = [];
  for await (const [name, handle] of (await demoFolder()).entries()) {
    if (handle.kind !== 'directory') continue;
    try {
      const hoodie = await (handle as FileSystemDirectoryHandle).getDirectoryHandle('.hoodie');
      const file = await (await hoodie.getFileHandle('hoodie.properties')).getFile();
      const type = /^hoodie\.table\.type=(.*)$/m.exec(await file.text())?.[1]?.trim() ?? '?';
      out.push({ name, type, lastModified: file.lastModified });
    } catch {
      // Not a table (yet): a folder left by a failed create, or something else.
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The Storage of the demo table `name`. */
export function storageOf(name: string): OpfsStorage {
  return opfsStorage(`${DEMO_FOLDER}/${name}`);
}

/** Remove a table's folder with everything in it. */
export async function deleteTable(name: string): Promise<void> {
  await (await demoFolder()).removeEntry(name, { recursive: true });
}
