// PLAIN encoding of a leaf column's non-null values [start, end): fixed-width types by one copy of the typed
// store, booleans bit-packed, byte arrays length-prefixed with strings written as UTF-8 straight into the sink.
import type { ParquetType } from 'hyparquet';
import type { BinaryValue, NumericStore } from '../leaf-column.js';
import type { ByteSink } from './byte-sink.js';

/** Write values `[start, end)` of `numbers` or `binaries` in PLAIN encoding for `type`. */
export function writePlain(sink: ByteSink, type: ParquetType, numbers: NumericStore | undefined, binaries: readonly BinaryValue[], start: number, end: number): void {
  if (numbers !== undefined) {
    if (type === 'BOOLEAN') writePlainBooleans(sink, numbers as Uint8Array, start, end);
    else sink.typed(numbers.subarray(start, end));
    return;
  }
  if (type === 'FIXED_LEN_BYTE_ARRAY') {
    for (let i = start; i < end; i++) sink.bytes(binaries[i] as Uint8Array);
    return;
  }
  for (let i = start; i < end; i++) {
    const v = binaries[i] as BinaryValue;
    if (typeof v === 'string') sink.lengthPrefixedUtf8(v);
    else {
      sink.u32(v.length);
      sink.bytes(v);
    }
  }
}

/** Booleans as one bit each, least significant bit first. */
export function writePlainBooleans(sink: ByteSink, bits: Uint8Array, start: number, end: number): void {
  const n = end - start;
  sink.ensure((n + 7) >> 3);
  const buf = sink.buf;
  let at = sink.pos;
  for (let i = 0; i < n; i += 8) {
    let byte = 0;
    for (let b = 0; b < 8 && i + b < n; b++) if (bits[start + i + b]) byte |= 1 << b;
    buf[at++] = byte;
  }
  sink.pos = at;
}
