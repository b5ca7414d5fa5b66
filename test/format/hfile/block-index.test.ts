// Root index entries: key lengths written as Hadoop VLong (what we write) and as the protobuf varint Hudi 1.1's
// own writer emits (different from 128 bytes up) both read back, for Hudi's int16+row keys and HBase's full keys.
import { describe, expect, it } from 'vitest';
import { decodeRootIndex, encodeRootIndex, indexKeyRow } from '../../../src/format/hfile/block-index.js';
import { concatBytes } from '../../../src/format/hfile/protobuf.js';
import { encodeVarint } from '../../../src/format/hfile/varint.js';
import { encodeVLong } from '../../../src/format/hfile/vlong.js';

function rowKey(row: string, hbase: boolean): Uint8Array {
  const bytes = new TextEncoder().encode(row);
  const head = Uint8Array.of(bytes.length >> 8, bytes.length & 0xff);
  // HBase: + family length 0, timestamp Long.MAX, type 4.
  const tail = hbase ? Uint8Array.of(0, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 4) : new Uint8Array(0);
  return concatBytes([head, bytes, tail]);
}

function entryBytes(offset: number, size: number, key: Uint8Array, length: Uint8Array): Uint8Array {
  const head = new Uint8Array(12);
  const view = new DataView(head.buffer);
  view.setBigInt64(0, BigInt(offset), false);
  view.setInt32(8, size, false);
  return concatBytes([head, length, key]);
}

describe('root index key lengths', () => {
  for (const hbase of [false, true]) {
    for (const rowLength of [5, 120, 126, 200, 1000]) {
      it(`${hbase ? 'HBase' : 'Hudi 1.1'} key with a ${rowLength}-byte row reads as VLong and as varint`, () => {
        const rows = ['a'.repeat(rowLength), 'b'.repeat(rowLength)];
        const keys = rows.map((r) => rowKey(r, hbase));
        for (const encode of [encodeVLong, encodeVarint]) {
          const payload = concatBytes(keys.map((k, i) => entryBytes(i * 1000, 500 + i, k, encode(k.length))));
          const decoded = decodeRootIndex(payload, 2, true, 0);
          expect(decoded.map((e) => [e.offset, e.size, new TextDecoder().decode(indexKeyRow(e.key))])).toEqual([
            [0, 500, rows[0]],
            [1000, 501, rows[1]],
          ]);
        }
      });
    }
  }

  it('we write VLong (0x8f then one byte for 128..255)', () => {
    const key = rowKey('x'.repeat(150), false); // 152 bytes
    const bytes = encodeRootIndex([{ offset: 7, size: 9, key }]);
    expect([...bytes.subarray(12, 14)]).toEqual([0x8f, 152]);
  });
});
