// Log-block visibility on bytes and block descriptors alone: committed, rolled back (command blocks),
// compacted (only by a log compaction that counts itself), after T, non-data blocks, corrupt regions as warnings, and log order across files.
import { describe, expect, test } from 'vitest';
import { encodeLogBlock, type LogBlockHeader, type LogBlockType } from '../../src/format/log/block.js';
import { scanLogFile, scanSliceLogs, visibleLogBlocks, type LogVisibility, type SliceLogBlock } from '../../src/file-group/log-scanner.js';

const t = (n: number): string => `2024010100000000${n}`;
const committed = (...ns: number[]) => new Set(ns.map(t));
const vis = (c: Set<string>, asOf?: number): LogVisibility => ({ isCommittedWrite: (i) => c.has(i), asOf: asOf === undefined ? undefined : t(asOf) });

/** A block descriptor as the scanner would produce it (content does not matter for visibility). */
function desc(type: Exclude<LogBlockType, 'CORRUPT'>, header: LogBlockHeader, path = 'p/.f_0.log.1_0-0-0'): SliceLogBlock {
  return { path, block: { type, offset: 0, length: 0, formatVersion: 1, header, footer: {}, content: new Uint8Array(0), contentOffset: 0 } };
}
const data = (n: number, type: 'AVRO_DATA' | 'PARQUET_DATA' | 'DELETE' = 'AVRO_DATA') => desc(type, { INSTANT_TIME: t(n) });
const instants = (blocks: SliceLogBlock[]) => blocks.map((b) => `${b.block.type}@${b.block.header.INSTANT_TIME?.slice(-1)}`);

describe('visibleLogBlocks', () => {
  test('data, parquet and delete blocks of committed writes count, in log order', () => {
    const blocks = [data(1), data(2, 'DELETE'), data(3, 'PARQUET_DATA')];
    expect(instants(visibleLogBlocks(blocks, vis(committed(1, 2, 3))))).toEqual(['AVRO_DATA@1', 'DELETE@2', 'PARQUET_DATA@3']);
  });

  test('blocks of uncommitted writes, and blocks without an instant, do not count', () => {
    expect(instants(visibleLogBlocks([data(1), data(2), desc('AVRO_DATA', {})], vis(committed(1))))).toEqual(['AVRO_DATA@1']);
  });

  test('a rollback command block hides its target in every log of the slice, before or after it', () => {
    const blocks = [data(1), data(2), desc('COMMAND', { INSTANT_TIME: t(3), TARGET_INSTANT_TIME: t(2), COMMAND_BLOCK_TYPE: '0' }, 'p/.f_0.log.2_0-0-0'), data(2)];
    expect(instants(visibleLogBlocks(blocks, vis(committed(1, 2, 3))))).toEqual(['AVRO_DATA@1']);
  });

  test('instants named in COMPACTED_BLOCK_TIMES do not count; the compacted block does', () => {
    const blocks = [data(1), data(2), desc('AVRO_DATA', { INSTANT_TIME: t(3), COMPACTED_BLOCK_TIMES: `${t(1)},${t(2)}` })];
    expect(instants(visibleLogBlocks(blocks, vis(committed(1, 2, 3))))).toEqual(['AVRO_DATA@3']);
  });

  test('COMPACTED_BLOCK_TIMES of a block that does not count hides nothing (pending, failed, rolled back or later than T)', () => {
    const lc = desc('AVRO_DATA', { INSTANT_TIME: t(3), COMPACTED_BLOCK_TIMES: `${t(1)},${t(2)}` });
    const blocks = [data(1), data(2), lc];
    // Log compaction 3 pending or failed: not a committed write.
    expect(instants(visibleLogBlocks(blocks, vis(committed(1, 2))))).toEqual(['AVRO_DATA@1', 'AVRO_DATA@2']);
    // Completed, but after T.
    expect(instants(visibleLogBlocks(blocks, vis(committed(1, 2, 3), 2)))).toEqual(['AVRO_DATA@1', 'AVRO_DATA@2']);
    // Rolled back by a command block.
    const rollback = desc('COMMAND', { INSTANT_TIME: t(4), TARGET_INSTANT_TIME: t(3), COMMAND_BLOCK_TYPE: '0' });
    expect(instants(visibleLogBlocks([...blocks, rollback], vis(committed(1, 2, 3, 4))))).toEqual(['AVRO_DATA@1', 'AVRO_DATA@2']);
  });

  test('a log compaction of a log compaction: only the last compacted block counts', () => {
    const lc3 = desc('AVRO_DATA', { INSTANT_TIME: t(3), COMPACTED_BLOCK_TIMES: `${t(1)},${t(2)}` });
    const lc5 = desc('AVRO_DATA', { INSTANT_TIME: t(5), COMPACTED_BLOCK_TIMES: `${t(3)},${t(4)}` });
    const blocks = [data(1), data(2), lc3, data(4), lc5];
    expect(instants(visibleLogBlocks(blocks, vis(committed(1, 2, 3, 4, 5))))).toEqual(['AVRO_DATA@5']);
    // As of 4 the second compaction has not happened: the first one's block and 4.
    expect(instants(visibleLogBlocks(blocks, vis(committed(1, 2, 3, 4, 5), 4)))).toEqual(['AVRO_DATA@3', 'AVRO_DATA@4']);
  });

  test('as of T: blocks of later writes do not count, T itself does', () => {
    expect(instants(visibleLogBlocks([data(1), data(2), data(3)], vis(committed(1, 2, 3), 2)))).toEqual(['AVRO_DATA@1', 'AVRO_DATA@2']);
  });

  test('command, HFile and CDC blocks are never returned', () => {
    const blocks = [desc('COMMAND', { INSTANT_TIME: t(1), TARGET_INSTANT_TIME: t(9) }), desc('HFILE_DATA', { INSTANT_TIME: t(1) }), desc('CDC_DATA', { INSTANT_TIME: t(1) })];
    expect(visibleLogBlocks(blocks, vis(committed(1)))).toEqual([]);
  });
});

describe('scanning bytes', () => {
  const block = (n: number, header: LogBlockHeader = {}) => encodeLogBlock('AVRO_DATA', { INSTANT_TIME: t(n), ...header }, new Uint8Array([1, 2, 3]));
  const concat = (...parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
    let at = 0;
    for (const p of parts) out.set(p, (at += p.length) - p.length);
    return out;
  };

  test('a corrupt region between blocks is skipped with a warning naming file, offset and length', () => {
    const a = block(1);
    const junk = new Uint8Array([9, 9, 9, 9, 9]);
    const { blocks, warnings } = scanLogFile(concat(a, junk, block(2)), 'p/.f_0.log.1_0-0-0');
    expect(blocks.map((b) => [b.path, b.block.header.INSTANT_TIME])).toEqual([['p/.f_0.log.1_0-0-0', t(1)], ['p/.f_0.log.1_0-0-0', t(2)]]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: 'CORRUPT_LOG_BLOCK', path: 'p/.f_0.log.1_0-0-0', offset: a.length, length: junk.length });
    expect(warnings[0]?.message).toContain(`at byte ${a.length}`);
  });

  test('a truncated last block is a warning, not an error', () => {
    const whole = block(1);
    const { blocks, warnings } = scanLogFile(concat(whole, block(2).subarray(0, 20)), 'x.log');
    expect(blocks).toHaveLength(1);
    expect(warnings.map((w) => [w.offset, w.length])).toEqual([[whole.length, 20]]);
  });

  test('scanSliceLogs: log order across files; a command block in a later file hides a block in an earlier one', () => {
    const rollback = encodeLogBlock('COMMAND', { INSTANT_TIME: t(4), TARGET_INSTANT_TIME: t(2), COMMAND_BLOCK_TYPE: '0' });
    const logs = [
      { path: 'l1', bytes: concat(block(1), block(2)) },
      { path: 'l2', bytes: concat(block(3), rollback, new Uint8Array([7])) },
    ];
    const { blocks, warnings } = scanSliceLogs(logs, vis(committed(1, 2, 3, 4)));
    expect(blocks.map((b) => `${b.path}:${b.block.header.INSTANT_TIME?.slice(-1)}`)).toEqual(['l1:1', 'l2:3']);
    expect(warnings.map((w) => w.path)).toEqual(['l2']);
  });
});
