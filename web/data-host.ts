// What the "Data in" and "Data out" panels (import, table import, row editor, export) need from the page:
// the operations runner, the chosen store, the open table, and creating or opening a table there.
import type { CreateTableOptions, Table, WriteOptions } from '../src/index.js';
import type { Operations } from './operations.js';
import type { DemoStore } from './stores.js';

/** The page, as the data panels see it. */
export interface DataHost {
  /** Runs writes on the open writable table (progress bar, log, refreshed views). */
  readonly ops: Operations;
  /** The connected store (undefined before one connects). */
  store(): DemoStore | undefined;
  /** The open table, writable or not. */
  table(): Table | undefined;
  /** The options every write of `table` takes (its index, catalog sync). */
  writeOptions(table: Table): WriteOptions;
  /** Create the table `options.name` in `store` and open it; true when it is open (and writable) afterwards. */
  create(store: DemoStore, options: CreateTableOptions): Promise<boolean>;
  /** Open the table in folder `path` of `store` (listed again first, so a new table shows). */
  openStored(store: DemoStore, path: string): Promise<void>;
}
