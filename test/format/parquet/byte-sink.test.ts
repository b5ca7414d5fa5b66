// ByteSink.lengthPrefixedUtf8 (format/parquet/encode/byte-sink.ts): short ASCII strings go through a copy loop,
// the rest through TextEncoder.encodeInto; both must give TextEncoder's bytes behind a little-endian length.
import { describe, expect, it } from 'vitest';
import { ByteSink } from '../../../src/format/parquet/encode/byte-sink.js';

const utf8 = new TextEncoder();

function expected(strings: string[]): Uint8Array {
  const parts = strings.map((s) => utf8.encode(s));
  const out = new Uint8Array(parts.reduce((n, p) => n + 4 + p.length, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const p of parts) {
    view.setUint32(at, p.length, true);
    out.set(p, at + 4);
    at += 4 + p.length;
  }
  return out;
}

describe('ByteSink.lengthPrefixedUtf8', () => {
  it("writes TextEncoder's bytes for ASCII, non-ASCII at any position, pairs and lone surrogates, short and long", () => {
    const strings = ['', 'a', 'rider-42', 'x'.repeat(24), 'y'.repeat(25), 'é', 'café', 'caf\u00e9 au lait', '\u00e9abc', 'ab\ud83d\ude00cd',
      'ab\ud83d', '\ude00ab', 'abc\ud83d', '日本語のテキスト', `${'a'.repeat(23)}\u00ff`, `${'a'.repeat(30)}\u00ff`, '\uffff\ue000', 'a\u0080', 'a\u007f'];
    const random: string[] = [];
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      const len = (seed = (seed * 1103515245 + 12345) >>> 0) % 40;
      let s = '';
      for (let j = 0; j < len; j++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        const pick = seed % 10;
        s += pick < 7 ? String.fromCharCode(0x20 + (seed >>> 8) % 95) : pick < 9 ? String.fromCharCode(0x80 + (seed >>> 8) % 0x7000) : String.fromCharCode(0xd800 + (seed >>> 8) % 0x800);
      }
      random.push(s);
    }
    const all = [...strings, ...random];
    const sink = new ByteSink(16);
    for (const s of all) sink.lengthPrefixedUtf8(s);
    expect(sink.written()).toEqual(expected(all));
  });
});
