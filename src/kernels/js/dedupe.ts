// JS twin of asm/dedupe.ts: dedupe by key keeping the greatest ordering value (a Map over the key bytes where
// the WASM kernel uses open addressing on XXH64).

import { checkOrderingValues, toPackedKeys, type KeysInput, type OrderingValues } from '../kernels.js';

/** The bytes of `data[start..end)` as a string of char codes 0-255 (an exact Map key for the bytes). */
function byteString(data: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(data[i] ?? 0);
  return s;
}

/** values[i] < values[j] (IEEE for doubles: false whenever a NaN is involved). */
function isSmaller(values: OrderingValues, i: number, j: number): boolean {
  if (values instanceof BigInt64Array) return (values[i] ?? 0n) < (values[j] ?? 0n);
  return (values[i] ?? 0) < (values[j] ?? 0);
}

/** JS twin of `Kernels.dedupeKeepMax`: a Map from key bytes to the index kept so far. */
export function dedupeKeepMax(keys: KeysInput, orderingValues: OrderingValues): Int32Array {
  const { bytes, offsets } = toPackedKeys(keys);
  const n = offsets.length - 1;
  checkOrderingValues(orderingValues, n);
  const keptByKey = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const key = byteString(bytes, offsets[i] ?? 0, offsets[i + 1] ?? 0);
    const j = keptByKey.get(key);
    // the later record wins unless its value is strictly smaller (ties and NaNs go to the later record)
    if (j === undefined || !isSmaller(orderingValues, i, j)) keptByKey.set(key, i);
  }
  const kept = new Uint8Array(n);
  for (const j of keptByKey.values()) kept[j] = 1;
  const out = new Int32Array(keptByKey.size);
  let c = 0;
  for (let i = 0; i < n; i++) if (kept[i] === 1) out[c++] = i;
  return out;
}
