// What a reader may conclude from a log block's header and footer (hudi-format.md §7.1, docs/partial-updates.md):
// every key must be one lakelet knows (an ordinal from a newer writer could change how the block reads), and
// IS_PARTIAL must be a boolean; a data block with IS_PARTIAL=true carries partial records (only the columns of
// its SCHEMA header). Anything else is UNSUPPORTED naming the key and value, never a guess.
import { unsupported } from '../../errors.js';
import { LOG_BLOCK_HEADER_KEYS, type LogBlock } from './block.js';

const where = (block: LogBlock, path: string | undefined) => ({ ...(path === undefined ? {} : { path }), offset: block.offset });

/**
 * Refuse a block whose header or footer holds a key ordinal lakelet does not know (`UNSUPPORTED` naming the
 * ordinal, its value and the file): Hudi's own reader cannot parse such a block either (its header enum has no
 * entry for it), and what the key means — whether the block counts, how its records read — is unknown.
 */
export function checkKnownHeaderKeys(block: LogBlock, path?: string): void {
  const unknown = Object.entries(block.unknownHeader ?? {});
  const first = unknown[0];
  if (first === undefined) return;
  const [ordinal, value] = first;
  throw unsupported(
    `log block: header key ordinal ${ordinal} (value ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}) is not one lakelet knows (it knows ${LOG_BLOCK_HEADER_KEYS.length}: ${LOG_BLOCK_HEADER_KEYS.join(', ')})${path === undefined ? '' : ` in ${path}`} at byte ${block.offset}`,
    { ...where(block, path), field: `header key ${ordinal}`, value },
  );
}

/**
 * Does this block carry partial records (`IS_PARTIAL` = `true`, Hudi's `HoodieDataBlock.containsPartialUpdates`)?
 * Absent or `false` → no. Hudi writes `Boolean.toString` (`true`); Java's `Boolean.parseBoolean` ignores case, so
 * `TRUE`/`False` read as it reads them. Any other value (`1`, `yes`, empty) → `UNSUPPORTED` naming it. Only data
 * blocks (`AVRO_DATA`, `PARQUET_DATA`) can be partial; on other block types the flag means nothing, but its value
 * is still checked.
 */
export function isPartialBlock(block: LogBlock, path?: string): boolean {
  const value = block.header.IS_PARTIAL; // the header only, as Hudi reads it (footers are empty in practice)
  if (value === undefined) return false;
  const flag = value.toLowerCase();
  if (flag !== 'true' && flag !== 'false') {
    throw unsupported(`log block: IS_PARTIAL header value ${JSON.stringify(value)} is neither true nor false${path === undefined ? '' : ` in ${path}`} at byte ${block.offset}`, { ...where(block, path), field: 'IS_PARTIAL', value });
  }
  return flag === 'true' && (block.type === 'AVRO_DATA' || block.type === 'PARQUET_DATA');
}
