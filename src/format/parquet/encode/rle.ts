// The RLE / bit-packing hybrid of parquet: definition and repetition levels, boolean pages and dictionary
// indices. Runs of 8 or more equal values become RLE runs, the rest bit-packed groups of 8.
import type { ByteSink } from './byte-sink.js';

/** Encode `values[start, end)` at `bitWidth` bits each; returns the bytes written (no length prefix). */
export function writeRleHybrid(sink: ByteSink, values: ArrayLike<number>, start: number, end: number, bitWidth: number): number {
  const from = sink.pos;
  let i = start;
  let packedStart = -1;
  let groups = 0;
  while (i < end) {
    const v = values[i] as number;
    let run = 1;
    while (i + run < end && values[i + run] === v) run++;
    if (run >= 8) {
      if (groups > 0) {
        bitPack(sink, values, packedStart, end, groups, bitWidth);
        groups = 0;
      }
      sink.varint(run * 2);
      for (let b = 0; b < (bitWidth + 7) >> 3; b++) sink.u8((v >>> (8 * b)) & 0xff);
      i += run;
    } else {
      if (groups === 0) packedStart = i;
      groups++;
      i += 8;
    }
  }
  if (groups > 0) bitPack(sink, values, packedStart, end, groups, bitWidth);
  return sink.pos - from;
}

function bitPack(sink: ByteSink, values: ArrayLike<number>, start: number, end: number, groups: number, bitWidth: number): void {
  sink.varint(groups * 2 + 1);
  if (bitWidth === 0) return;
  sink.ensure(groups * bitWidth + 1);
  const buf = sink.buf;
  let at = sink.pos;
  let acc = 0;
  let bits = 0;
  const n = groups * 8;
  for (let k = 0; k < n; k++) {
    const idx = start + k;
    const v = idx < end ? (values[idx] as number) : 0;
    acc += v * 2 ** bits;
    bits += bitWidth;
    while (bits >= 8) {
      buf[at++] = acc & 0xff;
      acc = Math.floor(acc / 256);
      bits -= 8;
    }
  }
  if (bits > 0) buf[at++] = acc & 0xff;
  sink.pos = at;
}

/** Bits needed for values up to `max`. */
export function bitWidthOf(max: number): number {
  return max <= 0 ? 0 : 32 - Math.clz32(max);
}
