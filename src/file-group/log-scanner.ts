// Which log blocks of a file slice count as of T (pure, hudi-rs's log_file/scanner.rs): data and delete blocks
// of committed writes at or before T, minus those a rollback command block or a compacted block names;
// corrupt regions are skipped and reported as warnings.
import { scanLogBlocks, type LogBlock } from '../format/log/block.js';
import { compareInstantTimes } from '../timeline/instant.js';

/** A block of a slice's log, with the log file it was read from. */
export interface SliceLogBlock {
  block: LogBlock;
  /** Path of the log file (relative to the table root). */
  path: string;
}

/** A corrupt region of a log file that the scan skipped. */
export interface LogScanWarning {
  code: 'CORRUPT_LOG_BLOCK';
  message: string;
  /** The log file. */
  path: string;
  /** Byte offset of the region in the file. */
  offset: number;
  /** Region length in bytes. */
  length: number;
}

/** What decides whether a block's write counts: the timeline (anything with `isCommittedWrite`) and T. */
export interface LogVisibility {
  /** True when the write that requested `instant` is committed (completed, or archived). */
  isCommittedWrite(instant: string): boolean;
  /** Snapshot instant T: blocks of later writes do not count. Undefined = latest. */
  asOf: string | undefined;
}

/** Scan one log file's bytes into its blocks, in file order, and a warning per corrupt region. */
export function scanLogFile(bytes: Uint8Array, path: string): { blocks: SliceLogBlock[]; warnings: LogScanWarning[] } {
  const scan = scanLogBlocks(bytes, path);
  return {
    blocks: scan.blocks.map((block) => ({ block, path })),
    warnings: scan.corrupt.map((c) => ({ code: 'CORRUPT_LOG_BLOCK', message: `log: skipped a corrupt block in ${path} at byte ${c.offset} (${c.reason})`, path, offset: c.offset, length: c.length })),
  };
}

/** The data-block types a reader merges (`DELETE` included). */
const DATA_BLOCKS: ReadonlySet<string> = new Set(['AVRO_DATA', 'PARQUET_DATA', 'DELETE']);

/**
 * The data and delete blocks of a slice's logs that count, in log order. A block does not count when its
 * `INSTANT_TIME` is not a committed write, is named by a rollback command block (`TARGET_INSTANT_TIME`), is
 * later than T, or is named in the `COMPACTED_BLOCK_TIMES` of a block that itself would count (a completed log
 * compaction's block, at or before T, not rolled back: Hudi's `AbstractHoodieLogRecordScanner` reads a
 * log-compacted block in place of the blocks it merged, and skips the block of a pending or failed
 * `logcompaction` like any uncommitted block — so the blocks it merged still count). `blocks` are every block
 * of the slice's log files in log order (command blocks included: they are what names rolled-back writes).
 */
export function visibleLogBlocks(blocks: readonly SliceLogBlock[], visibility: LogVisibility): SliceLogBlock[] {
  const rolledBack = new Set<string>();
  for (const { block } of blocks) {
    if (block.type === 'COMMAND' && block.header.TARGET_INSTANT_TIME) rolledBack.add(block.header.TARGET_INSTANT_TIME);
  }
  const valid = blocks.filter(({ block }) => {
    if (!DATA_BLOCKS.has(block.type)) return false;
    const instant = block.header.INSTANT_TIME ?? '';
    if (!visibility.isCommittedWrite(instant) || rolledBack.has(instant)) return false;
    return visibility.asOf === undefined || compareInstantTimes(instant, visibility.asOf) <= 0;
  });
  const compacted = new Set<string>();
  for (const { block } of valid) for (const t of (block.header.COMPACTED_BLOCK_TIMES ?? '').split(',')) if (t.trim()) compacted.add(t.trim());
  return valid.filter(({ block }) => !compacted.has(block.header.INSTANT_TIME ?? ''));
}

/** Scan a slice's log files (in log order) and keep the blocks that count: {@link scanLogFile} + {@link visibleLogBlocks}. */
export function scanSliceLogs(logs: readonly { path: string; bytes: Uint8Array }[], visibility: LogVisibility): { blocks: SliceLogBlock[]; warnings: LogScanWarning[] } {
  const all: SliceLogBlock[] = [];
  const warnings: LogScanWarning[] = [];
  for (const log of logs) {
    const scan = scanLogFile(log.bytes, log.path);
    for (const b of scan.blocks) all.push(b);
    for (const w of scan.warnings) warnings.push(w);
  }
  return { blocks: visibleLogBlocks(all, visibility), warnings };
}
