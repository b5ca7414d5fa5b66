// Dedupe by key keeping the greatest ordering value (open addressing on XXH64).
import { xxh64 } from './xxhash';
import { bytesEqual } from './compare';

// ---------------------------------------------------------------------------------------------------------
// Dedupe: one pass over an open-addressing table (linear probing, capacity a power of two >= 2*count) of
// (index + 1) per slot, keyed by the low 32 bits of XXH64. A later record replaces the kept one unless its
// ordering value is smaller (so ties and NaNs go to the later record, as Hudi's combine does).

/**
 * Keeps, per distinct key, the record with the greatest ordering value (`valuesPtr`: count f64 when
 * `valueKind` = 0, count i64 when 1). Writes the kept indices in ascending order to `outPtr` (count i32) and
 * returns how many. Scratch: `tablePtr` (4 * capacity bytes, capacity a power of two >= 2 * count),
 * `hashesPtr` (4 * count bytes), `keptPtr` (count bytes).
 */
export function dedupeKeepMax(
  keysPtr: usize, offsetsPtr: usize, count: i32, valuesPtr: usize, valueKind: i32,
  tablePtr: usize, capacity: i32, hashesPtr: usize, keptPtr: usize, outPtr: usize,
): i32 {
  const mask = <u32>(capacity - 1);
  memory.fill(tablePtr, 0, <usize>capacity << 2);
  for (let i = 0; i < count; i++) {
    const o = offsetsPtr + (<usize>i << 2);
    const start = load<u32>(o);
    const len = <i32>(load<u32>(o, 4) - start);
    const p = keysPtr + <usize>start;
    const h = <u32>xxh64(p, len, 0);
    store<u32>(hashesPtr + (<usize>i << 2), h);
    let slot = h & mask;
    for (;;) {
      const at = tablePtr + (<usize>slot << 2);
      const held = load<u32>(at);
      if (held == 0) {
        store<u32>(at, <u32>i + 1);
        break;
      }
      const j = held - 1;
      if (load<u32>(hashesPtr + (<usize>j << 2)) == h) {
        const oj = offsetsPtr + (<usize>j << 2);
        const sj = load<u32>(oj);
        if (<i32>(load<u32>(oj, 4) - sj) == len && bytesEqual(keysPtr + <usize>sj, p, len)) {
          let smaller: bool;
          if (valueKind == 0) {
            smaller = load<f64>(valuesPtr + (<usize>i << 3)) < load<f64>(valuesPtr + (<usize>j << 3));
          } else {
            smaller = load<i64>(valuesPtr + (<usize>i << 3)) < load<i64>(valuesPtr + (<usize>j << 3));
          }
          if (!smaller) store<u32>(at, <u32>i + 1);
          break;
        }
      }
      slot = (slot + 1) & mask;
    }
  }
  memory.fill(keptPtr, 0, <usize>count);
  for (let s = 0; s < capacity; s++) {
    const held = load<u32>(tablePtr + (<usize>s << 2));
    if (held != 0) store<u8>(keptPtr + <usize>(held - 1), 1);
  }
  let n = 0;
  for (let i = 0; i < count; i++) {
    if (load<u8>(keptPtr + <usize>i) != 0) {
      store<i32>(outPtr + (<usize>n << 2), i);
      n++;
    }
  }
  return n;
}

