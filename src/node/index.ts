// lakelet for Node: everything of the main entry plus the local file-system store, path helpers, publishing a
// listing for HTTP readers and reading parquet files as rows.
import { readFile, stat } from 'node:fs/promises';
import { tableStorage } from '../table/root.js';
import { LakeletError } from '../errors.js';
import { nodeFsStorage } from '../storage/node-fs.js';
import type { Storage } from '../storage/storage.js';
import { zipStorage } from '../storage/zip.js';
import { useNodeCompressors } from './compressors-node.js';
import { useNodeWorkers } from './worker-pool-node.js';

export * from '../index.js';
export { nodeFsStorage } from '../storage/node-fs.js';
export { publishListing, type PublishResult } from './publish.js';
export { readParquetFile, type ParquetFileRows } from './parquet-file.js';
export { nodeWorkerFactory, useNodeWorkers } from './worker-pool-node.js';

// Pools created without a factory of their own use worker_threads in Node; base files compress with node:zlib.
useNodeWorkers();
useNodeCompressors();

/**
 * A Storage for a table given by a local path: a directory (the table root or a folder holding one table)
 * or a `.zip` file holding one table. Missing paths → `NOT_FOUND`.
 */
export async function storageForPath(path: string): Promise<Storage> {
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    throw new LakeletError('NOT_FOUND', `table: no such file or directory ${JSON.stringify(path)}`, { path }, { cause: err });
  }
  if (info.isDirectory()) return tableStorage(nodeFsStorage(path));
  if (path.toLowerCase().endsWith('.zip')) return tableStorage(zipStorage(new Uint8Array(await readFile(path)), { label: path }));
  throw new LakeletError('INVALID_ARGUMENT', `table: ${JSON.stringify(path)} is neither a directory nor a .zip file`, { path });
}
