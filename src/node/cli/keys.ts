// `lakelet delete`'s record keys: read from a file one key per line (keys may hold commas), and the keys of a
// delete that match no record (named on stderr, so a delete that finds nothing is never silent).
import { readFile } from 'node:fs/promises';
import { LakeletError, type Table } from '../index.js';
import { UsageError } from './args.js';

/**
 * The keys in `path`: one per line, exactly as written (only the line break, `\n` or `\r\n`, is removed, so keys
 * may hold commas and spaces); empty lines are skipped. A file without a key → {@link UsageError}.
 */
export async function readKeysFile(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new LakeletError('NOT_FOUND', `delete: cannot read keys file ${JSON.stringify(path)} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { path }, { cause: err });
  }
  const keys = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line)).filter((k) => k !== '');
  if (keys.length === 0) throw new UsageError(`option --keys-file ${JSON.stringify(path)} holds no key`);
  return keys;
}

/** The distinct `keys` that no record of the table's latest snapshot has, in the order given. */
export async function keysWithoutRecord(table: Table, keys: readonly string[]): Promise<string[]> {
  const missing = new Set(keys);
  for await (const row of table.rows({ columns: ['_hoodie_record_key'] })) {
    missing.delete(row._hoodie_record_key as string);
    if (missing.size === 0) break;
  }
  return [...missing];
}

/** `delete: 2 of 4 keys matched no record: nope, gone` (the first 20 named). */
export function missingKeysLine(missing: readonly string[], total: number): string {
  const shown = missing.slice(0, 20).join(', ') + (missing.length > 20 ? `, … (${missing.length - 20} more)` : '');
  return `delete: ${missing.length} of ${total} key${total === 1 ? '' : 's'} matched no record: ${shown}`;
}
