// Inputs for the compression tests: empty, 1 byte, random, repetitive, text-like, >64 KiB, incompressible.

/** A deterministic xorshift byte source. */
export function randomBytes(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** Named inputs covering the snappy element kinds (short/long literals, 1- and 2-byte offset copies, blocks). */
export function compressInputs(): [string, Uint8Array][] {
  const text = new TextEncoder().encode(
    Array.from({ length: 4000 }, (_, i) => `{"id":${i},"name":"rider-${i % 97}","fare":${(i * 7.31) % 100}}`).join('\n'));
  const smallAlphabet = randomBytes(200_000, 7).map((b) => 97 + (b & 3));
  const longRuns = new Uint8Array(300_000);
  for (let i = 0; i < longRuns.length; i++) longRuns[i] = Math.floor(i / 5000) & 0xff;
  const farRepeat = new Uint8Array(140_000);
  const block = randomBytes(40_000, 9);
  for (let i = 0; i < farRepeat.length; i++) farRepeat[i] = block[i % block.length]!;
  return [
    ['empty', new Uint8Array(0)],
    ['1 byte', new Uint8Array([42])],
    ['14 bytes (below the match margin)', new TextEncoder().encode('aaaaaaaaaaaaaa')],
    ['16 equal bytes', new Uint8Array(16).fill(7)],
    ['random 1 KiB', randomBytes(1024, 3)],
    ['repetitive 64 KiB exactly', new Uint8Array(65_536).fill(1)],
    ['repetitive 64 KiB + 1', new Uint8Array(65_537).fill(2)],
    ['text-like', text],
    ['small alphabet >64 KiB', smallAlphabet],
    ['long runs 300 KB', longRuns],
    ['repeat at 40 KB distance', farRepeat],
    ['incompressible 1 MiB', randomBytes(1 << 20, 11)],
  ];
}
