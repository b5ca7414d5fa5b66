// The stores the demo keeps tables in: OPFS (default), IndexedDB, an S3-compatible bucket and a read-only
// HTTP URL. Each is a root Storage whose tables are folders, listed through lakelet's catalog
// (`.lakelet-catalog/` at the root, kept by `registerTable` and `catalogSync`). S3 keys live in this object
// only: never in storage, localStorage or the URL, and gone when the tab closes.
import {
  dropTable, httpStorage, indexedDbStorage, listTables, openTable, opfsStorage, prefixedStorage, registerTable, s3Storage,
  type CatalogEntry, type Storage,
} from '../src/index.js';

/** The kinds of store, in the order the picker shows them. */
export type StoreKind = 'opfs' | 'indexeddb' | 's3' | 'http';

/** Where an S3-compatible bucket is and how to sign for it. */
export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Key prefix the tables live under (may be empty). */
  prefix: string;
}

/** A table a store holds: its catalog entry's essentials. */
export interface StoredTable {
  name: string;
  /** Folder below the store root (`''`: the root is the table). */
  path: string;
  type: string;
  version: number;
  latestInstant: string | null;
}

/** A store of tables. */
export interface DemoStore {
  kind: StoreKind;
  /** For people: `OPFS lakelet-demo/`, `s3://bucket/prefix`, the URL. */
  label: string;
  /** The root the catalog lives at. */
  root: Storage;
  /** False for HTTP: tables open read-only. */
  writable: boolean;
  /** The tables in the store's catalog (plus the root itself when it is a table), by name. */
  list(): Promise<StoredTable[]>;
  /** The Storage of the table in folder `path`. */
  tableStorage(path: string): Storage;
  /** Remove a table: its catalog entry and its files. */
  remove(table: StoredTable): Promise<void>;
}

/** The OPFS folder and the IndexedDB database holding the demo's tables. */
export const DEMO_FOLDER = 'lakelet-demo';

/** True when this browser has OPFS (`navigator.storage.getDirectory`). */
export function opfsAvailable(): boolean {
  return typeof navigator.storage?.getDirectory === 'function';
}

/** Table names must be safe as folder names, catalog names and `hoodie.table.name`. */
export function checkTableName(name: string): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name)) return 'Use letters, digits and _ (starting with a letter or _), at most 64 characters.';
  return undefined;
}

const brief = (e: CatalogEntry): StoredTable => ({ name: e.name, path: e.path, type: e.type, version: e.version, latestInstant: e.latestInstant });

/** The catalog's tables; when the root itself is a Hudi table (an HTTP URL of one), that table too. */
async function catalogTables(root: Storage): Promise<StoredTable[]> {
  const tables = (await listTables(root)).map(brief);
  if (!tables.some((t) => t.path === '') && (await root.head('.hoodie/hoodie.properties').then(() => true, () => false))) {
    const t = await openTable(root);
    tables.push({ name: t.config.name, path: '', type: t.config.tableType, version: t.config.version, latestInstant: t.commits.at(-1)?.requestedTime ?? null });
  }
  return tables.sort((a, b) => a.name.localeCompare(b.name));
}

function catalogStore(kind: StoreKind, label: string, root: Storage, writable: boolean, afterRemove?: (t: StoredTable) => Promise<void>,
  unlisted?: () => Promise<string[]>): DemoStore {
  return {
    kind, label, root, writable,
    async list() {
      const tables = await catalogTables(root);
      const found = (await unlisted?.()) ?? [];
      const known = new Set(tables.map((t) => t.path));
      const missing = found.filter((path) => !known.has(path));
      if (missing.length === 0) return tables;
      for (const path of missing) await registerTable(root, path, { name: path });
      return catalogTables(root);
    },
    tableStorage: (path) => (path === '' ? root : prefixedStorage(root, path)),
    async remove(t) {
      await dropTable(root, t.name, { deleteFiles: !afterRemove });
      await afterRemove?.(t);
    },
  };
}

type Directory = FileSystemDirectoryHandle & { entries(): AsyncIterableIterator<[string, FileSystemHandle]> };

const demoFolder = async () => (await (await navigator.storage.getDirectory()).getDirectoryHandle(DEMO_FOLDER, { create: true })) as Directory;

/** Folders of `lakelet-demo/` holding `.hoodie/hoodie.properties` (tables earlier demos made without a catalog entry). */
async function opfsTableFolders(): Promise<string[]> {
  const out: string[] = [];
  for await (const [name, handle] of (await demoFolder()).entries()) {
    if (handle.kind !== 'directory' || name.startsWith('.') || checkTableName(name)) continue;
    const hoodie = await (handle as FileSystemDirectoryHandle).getDirectoryHandle('.hoodie').catch(() => undefined);
    if (await hoodie?.getFileHandle('hoodie.properties').then(() => true, () => false)) out.push(name);
  }
  return out;
}

/**
 * Tables under `lakelet-demo/` in this origin's private file system; removing one removes its folder. Table
 * folders without a catalog entry (made by earlier versions of the demo) are registered when listed.
 */
export function opfsStore(): DemoStore {
  return catalogStore('opfs', `OPFS ${DEMO_FOLDER}/`, opfsStorage(DEMO_FOLDER), true, async (t) => {
    await (await demoFolder()).removeEntry(t.path, { recursive: true }).catch((err: unknown) => {
      if (!(err instanceof DOMException && err.name === 'NotFoundError')) throw err;
    });
  }, opfsTableFolders);
}

/** Tables in the IndexedDB database `lakelet-demo`. */
export function indexedDbStore(): DemoStore {
  return catalogStore('indexeddb', `IndexedDB ${DEMO_FOLDER}`, indexedDbStorage(DEMO_FOLDER), true);
}

/** Tables in an S3-compatible bucket (path-style addressing, which MinIO, R2 and s3rver all take). */
export function s3Store(s: S3Settings): DemoStore {
  const prefix = s.prefix.replace(/^\/+|\/+$/g, '');
  const root = s3Storage({
    endpoint: s.endpoint, bucket: s.bucket, region: s.region || 'us-east-1', forcePathStyle: true,
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey }, ...(prefix ? { prefix } : {}),
  });
  return catalogStore('s3', root.label, root, true);
}

/** A read-only store over files served at `url`: a table, or a folder with a catalog. */
export function httpStore(url: string): DemoStore {
  const root = httpStorage(url.endsWith('/') ? url : `${url}/`, { label: url });
  return catalogStore('http', url, root, false);
}
