// The Table's reads, beyond resolving them: a `rows()` call resolved as a snapshot or incremental query, and a
// resolved read collected into an Arrow Table (Arrow loaded on first use; read warnings kept in its metadata).
import type { ArrowTable } from '../arrow/arrow.js';
import { executeRead, resolveIncremental, resolveQuery, type ResolvedRead } from '../engine/read/query.js';
import type { ReadWarning } from '../engine/read/file-slice-reader.js';
import type { TableState } from '../engine/table-state.js';
import type { RowsOptions } from '../types.js';

/** `rows()`'s query: incremental over `(from, to]` when `from` is given, else a snapshot query. */
export function resolveRowsRead(state: TableState, options: RowsOptions): Promise<ResolvedRead> {
  return options.from !== undefined ? resolveIncremental(state, { ...options, from: options.from }) : resolveQuery(state, options);
}

/** Every row of `read` as an Arrow Table; warnings go to `onWarning` and into the schema metadata `lakelet.warnings`. */
export async function collectArrow(state: TableState, read: ResolvedRead, onWarning?: (w: ReadWarning) => void): Promise<ArrowTable> {
  const warnings: ReadWarning[] = [];
  const rows: Record<string, unknown>[] = [];
  for await (const row of executeRead(state, read, (w) => {
    warnings.push(w);
    onWarning?.(w);
  })) rows.push(row);
  const { arrowSchema, rowsToArrow } = await import('../arrow/arrow.js');
  const table = rowsToArrow(rows, arrowSchema(read.schema, read.columns));
  if (warnings.length > 0) table.schema.metadata.set('lakelet.warnings', JSON.stringify(warnings));
  return table;
}
