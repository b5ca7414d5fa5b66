// Standard Base64 (RFC 4648: `+/` alphabet, `=` padding, no line breaks) without Node's Buffer, fast enough
// for Hudi's 431,380-character bloom-filter strings.

import { LakeletError } from '../errors.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const CODES = new Uint8Array(64);
const VALUES = new Int8Array(256).fill(-1);
for (let i = 0; i < 64; i++) {
  const c = ALPHABET.charCodeAt(i);
  CODES[i] = c;
  VALUES[c] = i;
}
const PAD = 61; // '='
const ascii = new TextDecoder();

/** Encodes bytes as standard padded Base64 (what Java's `Base64.getEncoder()` produces). */
export function encodeBase64(bytes: Uint8Array): string {
  const n = bytes.length;
  const out = new Uint8Array(Math.ceil(n / 3) * 4);
  const full = n - (n % 3);
  let o = 0;
  for (let i = 0; i < full; i += 3) {
    const v = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out[o] = CODES[v >>> 18] ?? 0;
    out[o + 1] = CODES[(v >>> 12) & 63] ?? 0;
    out[o + 2] = CODES[(v >>> 6) & 63] ?? 0;
    out[o + 3] = CODES[v & 63] ?? 0;
    o += 4;
  }
  const rest = n - full;
  if (rest > 0) {
    const v = ((bytes[full] ?? 0) << 16) | (rest === 2 ? (bytes[full + 1] ?? 0) << 8 : 0);
    out[o] = CODES[v >>> 18] ?? 0;
    out[o + 1] = CODES[(v >>> 12) & 63] ?? 0;
    out[o + 2] = rest === 2 ? (CODES[(v >>> 6) & 63] ?? 0) : PAD;
    out[o + 3] = PAD;
  }
  return ascii.decode(out);
}

function bad(text: string, at: number): LakeletError {
  const code = text.charCodeAt(at);
  return new LakeletError('CORRUPT_FILE', `base64: invalid character U+${code.toString(16).padStart(4, '0')} at offset ${at}`, { offset: at });
}

/**
 * Decodes standard Base64. Padding is optional (as in Java's basic decoder); whitespace, URL-safe
 * characters, misplaced `=` or an impossible length throw `CORRUPT_FILE` naming the offset.
 */
export function decodeBase64(text: string): Uint8Array {
  let end = text.length;
  if (end > 0 && text.charCodeAt(end - 1) === PAD) end--;
  if (end > 0 && text.charCodeAt(end - 1) === PAD) end--;
  if (end < text.length && text.length % 4 !== 0) {
    throw new LakeletError('CORRUPT_FILE', `base64: padded text has length ${text.length}, not a multiple of 4`, { offset: text.length });
  }
  const rem = end % 4;
  if (rem === 1) {
    throw new LakeletError('CORRUPT_FILE', `base64: ${end} characters leave a dangling 6-bit group`, { offset: end - 1 });
  }
  const groups = end >> 2;
  const out = new Uint8Array(groups * 3 + (rem === 0 ? 0 : rem - 1));
  let o = 0;
  let i = 0;
  for (let g = 0; g < groups; g++, i += 4) {
    const a = VALUES[text.charCodeAt(i)] ?? -1;
    const b = VALUES[text.charCodeAt(i + 1)] ?? -1;
    const c = VALUES[text.charCodeAt(i + 2)] ?? -1;
    const d = VALUES[text.charCodeAt(i + 3)] ?? -1;
    if ((a | b | c | d) < 0) {
      for (let j = i; j < i + 4; j++) if ((VALUES[text.charCodeAt(j)] ?? -1) < 0) throw bad(text, j);
    }
    const v = (a << 18) | (b << 12) | (c << 6) | d;
    out[o] = v >>> 16;
    out[o + 1] = (v >>> 8) & 255;
    out[o + 2] = v & 255;
    o += 3;
  }
  if (rem > 0) {
    let v = 0;
    for (let j = 0; j < rem; j++) {
      const x = VALUES[text.charCodeAt(i + j)] ?? -1;
      if (x < 0) throw bad(text, i + j);
      v = (v << 6) | x;
    }
    if (rem === 2) {
      out[o] = v >>> 4;
    } else {
      out[o] = v >>> 10;
      out[o + 1] = (v >>> 2) & 255;
    }
  }
  return out;
}
