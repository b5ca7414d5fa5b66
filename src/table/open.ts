// Opening and creating tables: `openTable` reads a table at the root of a store; `createTable` writes a new
// table's hoodie.properties (table version 6 by default, 8 or 9 on request) and opens it with the write options it was given as the defaults of its writes.
import { parseTableConfig } from '../config/table-config.js';
import { createTableFiles, writeDefaultsOf, type CreateTableOptions } from '../engine/create-table.js';
import { PROPERTIES_PATH } from '../layout.js';
import type { Storage } from '../storage/storage.js';
import { Table } from './table.js';
import type { OpenTableOptions } from '../types.js';

/**
 * Open the Hudi table at the root of `storage`. `options.listing` sets where its reads list files (default
 * `metadata`: the metadata table's `files` partition when the table lists it, else storage; a query's own
 * `listing` option overrides it). `options.validators` become the pre-commit validators of its writes.
 */
export function openTable(storage: Storage, options: OpenTableOptions = {}): Promise<Table> {
  return Table.open(storage, options.validators ? { validators: options.validators } : undefined, options);
}

/**
 * Create a Hudi table (table version 6, or `options.tableVersion` 8 or 9) in an empty `storage` and open it. Write options in `options`
 * (index, file sizing, codec, …) become the defaults of every write through the returned object.
 */
export async function createTable(storage: Storage, options: CreateTableOptions): Promise<Table> {
  const text = await createTableFiles(storage, options);
  // Built from what was written, without reading it back: once hoodie.properties exists the table does.
  return Table.created(storage, parseTableConfig(text, PROPERTIES_PATH), writeDefaultsOf(options));
}
