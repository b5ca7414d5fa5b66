// What a reader may conclude from a block header (src/format/log/header.ts): IS_PARTIAL read as Java's
// Boolean.parseBoolean reads "true"/"false" and refused otherwise; header or footer key ordinals lakelet does not
// know refused with UNSUPPORTED naming the ordinal and the file.
import { describe, expect, it } from 'vitest';
import { encodeLogBlock, scanLogBlocks, type LogBlock, type LogBlockHeader } from '../../../src/format/log/block.js';
import { checkKnownHeaderKeys, isPartialBlock } from '../../../src/format/log/header.js';
import { thrown } from '../../helpers/expect-error.js';

const blockOf = (bytes: Uint8Array): LogBlock => {
  const scan = scanLogBlocks(bytes);
  expect(scan.corrupt).toEqual([]);
  return scan.blocks[0] as LogBlock;
};
const data = (header: LogBlockHeader) => blockOf(encodeLogBlock('AVRO_DATA', { INSTANT_TIME: '20240101000000000', ...header }, new Uint8Array([0, 0, 0, 3, 0, 0, 0, 0])));

/**
 * A block whose first header entry has key ordinal `ordinal`: written with a known key, then that entry's int32
 * key (after magic 6, block length 8, format version 4, block type 4, entry count 4 = byte 26) rewritten.
 */
function withHeaderOrdinal(ordinal: number, inFooter = false): Uint8Array {
  const bytes = inFooter
    ? encodeLogBlock('AVRO_DATA', {}, new Uint8Array([0, 0, 0, 3, 0, 0, 0, 0]), { BLOCK_IDENTIFIER: 'x' })
    : encodeLogBlock('AVRO_DATA', { BLOCK_IDENTIFIER: 'x' }, new Uint8Array([0, 0, 0, 3, 0, 0, 0, 0]));
  // Footer: after the empty header (count 4 bytes at 22), content length 8 + content 8 → footer count at 42, key at 46.
  new DataView(bytes.buffer).setInt32(inFooter ? 46 : 26, ordinal, false);
  return bytes;
}

describe('isPartialBlock', () => {
  it('absent or false: full records; true (any case, as Java parses it): partial', () => {
    expect(isPartialBlock(data({}))).toBe(false);
    expect(isPartialBlock(data({ IS_PARTIAL: 'false' }))).toBe(false);
    expect(isPartialBlock(data({ IS_PARTIAL: 'true' }))).toBe(true);
    expect(isPartialBlock(data({ IS_PARTIAL: 'TRUE' }))).toBe(true);
    expect(isPartialBlock(data({ IS_PARTIAL: 'False' }))).toBe(false);
  });

  it('a value other than true/false is UNSUPPORTED naming it and the file', () => {
    for (const value of ['1', 'yes', '', ' true']) {
      const err = thrown(() => isPartialBlock(data({ IS_PARTIAL: value }), 'p/.f_1.log.1_0-1-1'));
      expect(err.code).toBe('UNSUPPORTED');
      expect(err.context).toMatchObject({ field: 'IS_PARTIAL', value, path: 'p/.f_1.log.1_0-1-1', offset: 0 });
    }
  });

  it('only data blocks are partial: the flag on a delete or command block means nothing (its value is still checked)', () => {
    const del = blockOf(encodeLogBlock('DELETE', { INSTANT_TIME: '20240101000000000', IS_PARTIAL: 'true' }));
    expect(isPartialBlock(del)).toBe(false);
    const cmd = blockOf(encodeLogBlock('COMMAND', { INSTANT_TIME: '2', TARGET_INSTANT_TIME: '1', COMMAND_BLOCK_TYPE: '0', IS_PARTIAL: 'maybe' }));
    expect(thrown(() => isPartialBlock(cmd)).code).toBe('UNSUPPORTED');
  });
});

describe('checkKnownHeaderKeys', () => {
  it('the nine known keys pass', () => {
    expect(() => checkKnownHeaderKeys(data({ BLOCK_IDENTIFIER: 'x', IS_PARTIAL: 'true', BASE_FILE_INSTANT_TIME_OF_RECORD_POSITIONS: '1' }))).not.toThrow();
    expect(() => checkKnownHeaderKeys(blockOf(withHeaderOrdinal(8)))).not.toThrow();
  });

  it('an unknown header ordinal (a newer writer\'s key) is UNSUPPORTED naming the ordinal, its value and the file', () => {
    const block = blockOf(withHeaderOrdinal(9));
    expect(block.unknownHeader).toEqual({ 9: 'x' });
    const err = thrown(() => checkKnownHeaderKeys(block, 'p/.f_1.log.1_0-1-1'));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.context).toMatchObject({ field: 'header key 9', value: 'x', path: 'p/.f_1.log.1_0-1-1', offset: 0 });
    expect(err.message).toContain('ordinal 9');
  });

  it('an unknown footer ordinal is refused too', () => {
    const block = blockOf(withHeaderOrdinal(42, true));
    expect(block.unknownHeader).toEqual({ 42: 'x' });
    expect(thrown(() => checkKnownHeaderKeys(block)).code).toBe('UNSUPPORTED');
  });
});
