// The WASM binding of the kernels: instantiates the AssemblyScript module (no imports), copies each batch
// into its linear memory, runs it and copies the results out; bloom filters of a BloomProbe stay resident. The
// first wrapped instance also becomes the thread's kernels for the file writer (kernels/thread-kernels.ts).
// `loadKernels` picks the SIMD build when the runtime validates SIMD, and falls back to the JS twin.

import { LakeletError } from '../errors.js';
import { createJsKernels } from './js-kernels.js';
import { ResidentHeap } from './resident-heap.js';
import { installThreadKernels } from './thread-kernels.js';
import {
  bloomRowBytes, checkBloomArgs, checkOrderingValues, hashSeed64, keyCount, toPackedKeys,
  type BloomProbe, type Kernels, type KeysInput, type OrderingValues, type PackedKeys,
} from './kernels.js';

/** The raw exports of asm/index.ts (pointers and lengths are byte offsets into `memory`). */
export interface KernelExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  reset(): void;
  setFloor(ptr: number): number;
  alloc(size: number): number;
  hudiMurmurBatch(keysPtr: number, offsetsPtr: number, count: number, seed: number, outPtr: number): void;
  bloomPositionsBatch(keysPtr: number, offsetsPtr: number, count: number, m: number, k: number, outPtr: number): void;
  bloomProbeBatch(bitsPtr: number, m: number, k: number, rows: number, keysPtr: number, offsetsPtr: number,
    count: number, outPtr: number, scratchPtr: number): number;
  bloomAddBatch(bitsPtr: number, m: number, k: number, keysPtr: number, offsetsPtr: number, count: number, scratchPtr: number): void;
  xxh64Batch(keysPtr: number, offsetsPtr: number, count: number, seed: bigint, outPtr: number): number;
  dedupeKeepMax(keysPtr: number, offsetsPtr: number, count: number, valuesPtr: number, valueKind: number,
    tablePtr: number, capacity: number, hashesPtr: number, keptPtr: number, outPtr: number): number;
  sortKeys(keysPtr: number, offsetsPtr: number, count: number, permPtr: number, tmpPermPtr: number,
    prePtr: number, tmpPrePtr: number, histPtr: number): number;
  snappyMaxLength(n: number): number;
  snappyCompress(inPtr: number, len: number, outPtr: number, tablePtr: number): number;
  snappyUncompress(inPtr: number, inLen: number, outPtr: number, outLen: number): number;
}

/** Where `loadKernels` gets the module: bytes, a compiled module, or a URL to fetch. */
export type KernelsSource = BufferSource | WebAssembly.Module | URL | string;

/** Options of {@link loadKernels}. */
export interface LoadKernelsOptions {
  /** Build to fetch when no source is given: default `'simd'` when the runtime validates SIMD, else `'scalar'`. */
  variant?: 'simd' | 'scalar';
}

const FUNCTIONS = ['heapBase', 'reset', 'setFloor', 'alloc', 'hudiMurmurBatch', 'bloomPositionsBatch', 'bloomProbeBatch',
  'bloomAddBatch', 'xxh64Batch', 'dedupeKeepMax', 'sortKeys', 'snappyMaxLength', 'snappyCompress', 'snappyUncompress'] as const;

/** Bytes of the snappy kernel's hash table: 2^14 u16 entries (asm MAX_TABLE_BITS). */
const SNAPPY_TABLE_BYTES = 2 << 14;

/** What the asm snappyUncompress's codes -1.. -4 mean. */
const SNAPPY_ERRORS = ['input ends inside an element', 'a copy reaches before the start of the output', 'output longer than the page', 'output shorter than the page'];

/** Bytes of scratch `bloomProbeBatch` needs: 2 x 256 premixed block words (asm MAX_PREMIX_WORDS), k positions, 2 x 16 bytes of slot state. */
const probeScratchBytes = (k: number): number => 4 * (512 + k) + 32;
/** Bytes of scratch `bloomAddBatch` needs: 2 x 256 premixed block words. */
const ADD_SCRATCH_BYTES = 4 * 512;

// (func (result v128) i32.const 0 i8x16.splat): validates only where wasm SIMD is supported.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11]);

/** True when this runtime supports WebAssembly fixed-width SIMD. */
export function wasmSimdSupported(): boolean {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

function checkExports(exports: WebAssembly.Exports): KernelExports {
  if (!(exports['memory'] instanceof WebAssembly.Memory)) throw new Error('kernels: wasm module exports no memory');
  for (const name of FUNCTIONS) {
    if (typeof exports[name] !== 'function') throw new Error(`kernels: wasm module lacks export ${name}`);
  }
  return exports as unknown as KernelExports;
}

/** Wraps instantiated kernel exports in the {@link Kernels} interface. */
export function wrapKernelExports(ex: KernelExports, variant: 'simd' | 'scalar'): Kernels {
  const resident = new ResidentHeap(ex);
  const alloc = (size: number): number => {
    const ptr = ex.alloc(size) >>> 0;
    if (ptr === 0) throw new LakeletError('INVALID_ARGUMENT', `kernels: batch does not fit in wasm memory (${size} more bytes)`, { value: size });
    return ptr;
  };
  /** Copies the keys in; returns their pointers. Call before taking views of memory (allocations grow it). */
  const placeKeys = (packed: PackedKeys): { keysPtr: number; offsetsPtr: number; count: number } => {
    const count = keyCount(packed);
    const keysPtr = alloc(packed.bytes.length);
    const offsetsPtr = alloc(4 * (count + 1));
    return { keysPtr, offsetsPtr, count };
  };
  const copyKeys = (packed: PackedKeys, keysPtr: number, offsetsPtr: number): void => {
    const buf = ex.memory.buffer; // fresh view: memory may have grown (toolchain pitfall P6)
    new Uint8Array(buf, keysPtr, packed.bytes.length).set(packed.bytes);
    new Uint32Array(buf, offsetsPtr, packed.offsets.length).set(packed.offsets);
  };

  const kernels: Kernels = {
    kind: 'wasm',
    variant,
    hudiMurmur(keys: KeysInput, seed = 0): Int32Array {
      const packed = toPackedKeys(keys);
      ex.reset();
      const { keysPtr, offsetsPtr, count } = placeKeys(packed);
      const outPtr = alloc(4 * count);
      copyKeys(packed, keysPtr, offsetsPtr);
      ex.hudiMurmurBatch(keysPtr, offsetsPtr, count, seed | 0, outPtr);
      return new Int32Array(ex.memory.buffer, outPtr, count).slice();
    },
    bloomPositions(keys: KeysInput, m: number, k: number): Int32Array {
      checkBloomArgs(new Uint8Array(bloomRowBytes(m)), m, k, 1);
      const packed = toPackedKeys(keys);
      ex.reset();
      const { keysPtr, offsetsPtr, count } = placeKeys(packed);
      const outPtr = alloc(4 * count * k);
      copyKeys(packed, keysPtr, offsetsPtr);
      ex.bloomPositionsBatch(keysPtr, offsetsPtr, count, m, k, outPtr);
      return new Int32Array(ex.memory.buffer, outPtr, count * k).slice();
    },
    bloomProbe(filterBits: Uint8Array, m: number, k: number, keys: KeysInput, rows = 1): Uint8Array {
      checkBloomArgs(filterBits, m, k, rows);
      const packed = toPackedKeys(keys);
      const bitBytes = rows * bloomRowBytes(m);
      ex.reset();
      const bitsPtr = alloc(bitBytes);
      const { keysPtr, offsetsPtr, count } = placeKeys(packed);
      const outPtr = alloc(count);
      const scratchPtr = alloc(probeScratchBytes(k));
      copyKeys(packed, keysPtr, offsetsPtr);
      new Uint8Array(ex.memory.buffer, bitsPtr, bitBytes).set(filterBits.subarray(0, bitBytes));
      ex.bloomProbeBatch(bitsPtr, m, k, rows, keysPtr, offsetsPtr, count, outPtr, scratchPtr);
      return new Uint8Array(ex.memory.buffer, outPtr, count).slice();
    },
    createBloomProbe(filterBits: Uint8Array, m: number, k: number, rows = 1): BloomProbe {
      checkBloomArgs(filterBits, m, k, rows);
      const bitBytes = rows * bloomRowBytes(m);
      let bitsPtr: number | undefined = resident.alloc(bitBytes);
      new Uint8Array(ex.memory.buffer, bitsPtr, bitBytes).set(filterBits.subarray(0, bitBytes));
      return {
        m, k, rows,
        probe(keys: KeysInput): Uint8Array {
          if (bitsPtr === undefined) throw new LakeletError('INVALID_ARGUMENT', 'kernels: bloom probe used after dispose()');
          const packed = toPackedKeys(keys);
          ex.reset();
          const { keysPtr, offsetsPtr, count } = placeKeys(packed);
          const outPtr = alloc(count);
          const scratchPtr = alloc(probeScratchBytes(k));
          copyKeys(packed, keysPtr, offsetsPtr);
          ex.bloomProbeBatch(bitsPtr, m, k, rows, keysPtr, offsetsPtr, count, outPtr, scratchPtr);
          return new Uint8Array(ex.memory.buffer, outPtr, count).slice();
        },
        dispose(): void {
          if (bitsPtr !== undefined) resident.free(bitsPtr);
          bitsPtr = undefined;
        },
      };
    },
    hashKeys64(keys: KeysInput, seed: bigint | number = 0): BigUint64Array {
      const s = hashSeed64(seed);
      const packed = toPackedKeys(keys);
      ex.reset();
      const { keysPtr, offsetsPtr, count } = placeKeys(packed);
      const outPtr = alloc(8 * count);
      copyKeys(packed, keysPtr, offsetsPtr);
      ex.xxh64Batch(keysPtr, offsetsPtr, count, s, outPtr);
      return new BigUint64Array(ex.memory.buffer, outPtr, count).slice();
    },
    dedupeKeepMax(keys: KeysInput, orderingValues: OrderingValues): Int32Array {
      const packed = toPackedKeys(keys);
      const count = keyCount(packed);
      checkOrderingValues(orderingValues, count);
      let capacity = 16;
      while (capacity < 2 * count) capacity *= 2;
      ex.reset();
      const { keysPtr, offsetsPtr } = placeKeys(packed);
      const valuesPtr = alloc(8 * count);
      const tablePtr = alloc(4 * capacity);
      const hashesPtr = alloc(4 * count);
      const keptPtr = alloc(count);
      const outPtr = alloc(4 * count);
      copyKeys(packed, keysPtr, offsetsPtr);
      const isBig = orderingValues instanceof BigInt64Array;
      if (isBig) new BigInt64Array(ex.memory.buffer, valuesPtr, count).set(orderingValues);
      else new Float64Array(ex.memory.buffer, valuesPtr, count).set(orderingValues);
      const kept = ex.dedupeKeepMax(keysPtr, offsetsPtr, count, valuesPtr, isBig ? 1 : 0, tablePtr, capacity, hashesPtr, keptPtr, outPtr);
      return new Int32Array(ex.memory.buffer, outPtr, kept).slice();
    },
    sortKeys(keys: KeysInput): Uint32Array {
      const packed = toPackedKeys(keys);
      ex.reset();
      const { keysPtr, offsetsPtr, count } = placeKeys(packed);
      const permPtr = alloc(4 * count);
      const tmpPermPtr = alloc(4 * count);
      const prePtr = alloc(8 * count);
      const tmpPrePtr = alloc(8 * count);
      const histPtr = alloc(9 * 256 * 4);
      copyKeys(packed, keysPtr, offsetsPtr);
      ex.sortKeys(keysPtr, offsetsPtr, count, permPtr, tmpPermPtr, prePtr, tmpPrePtr, histPtr);
      return new Uint32Array(ex.memory.buffer, permPtr, count).slice();
    },
    bloomAdd(filterBits: Uint8Array, m: number, k: number, keys: KeysInput): Uint8Array {
      checkBloomArgs(filterBits, m, k, 1);
      const packed = toPackedKeys(keys);
      const bitBytes = bloomRowBytes(m);
      ex.reset();
      const bitsPtr = alloc(bitBytes);
      const { keysPtr, offsetsPtr, count } = placeKeys(packed);
      const scratchPtr = alloc(ADD_SCRATCH_BYTES);
      copyKeys(packed, keysPtr, offsetsPtr);
      new Uint8Array(ex.memory.buffer, bitsPtr, bitBytes).set(filterBits.subarray(0, bitBytes));
      ex.bloomAddBatch(bitsPtr, m, k, keysPtr, offsetsPtr, count, scratchPtr);
      filterBits.set(new Uint8Array(ex.memory.buffer, bitsPtr, bitBytes));
      return filterBits;
    },
    snappyCompress(input: Uint8Array): Uint8Array {
      if (input.length > 0x7fff0000) {
        throw new LakeletError('INVALID_ARGUMENT', `kernels: snappy input of ${input.length} bytes is over the 2 GiB limit`, { value: input.length });
      }
      ex.reset();
      const inPtr = alloc(input.length);
      const outPtr = alloc(ex.snappyMaxLength(input.length));
      const tablePtr = alloc(SNAPPY_TABLE_BYTES);
      new Uint8Array(ex.memory.buffer, inPtr, input.length).set(input);
      const written = ex.snappyCompress(inPtr, input.length, outPtr, tablePtr);
      return new Uint8Array(ex.memory.buffer, outPtr, written).slice();
    },
    snappyUncompress(input: Uint8Array, outputLength: number): Uint8Array {
      if (!Number.isSafeInteger(outputLength) || outputLength < 0 || outputLength > 0x7fff0000 || input.length > 0x7fff0000) {
        throw new LakeletError('INVALID_ARGUMENT', `kernels: snappy output of ${outputLength} bytes (input ${input.length}) is out of range`, { value: outputLength });
      }
      ex.reset();
      const inPtr = alloc(input.length);
      const outPtr = alloc(outputLength);
      new Uint8Array(ex.memory.buffer, inPtr, input.length).set(input);
      const code = ex.snappyUncompress(inPtr, input.length, outPtr, outputLength);
      if (code !== 0) throw new LakeletError('CORRUPT_FILE', `snappy: ${SNAPPY_ERRORS[-code - 1] ?? `error ${code}`} (${input.length} bytes into ${outputLength})`, { value: code });
      return new Uint8Array(ex.memory.buffer, outPtr, outputLength).slice();
    },
  };
  installThreadKernels(kernels);
  return kernels;
}

/**
 * Instantiates the kernel module from bytes or a compiled module (no imports needed) and wraps it.
 * Throws when the bytes are not a valid kernel module.
 */
export async function instantiateKernels(source: BufferSource | WebAssembly.Module, variant: 'simd' | 'scalar' = 'simd'): Promise<Kernels> {
  const instance = source instanceof WebAssembly.Module
    ? await WebAssembly.instantiate(source, {})
    : (await WebAssembly.instantiate(source, {})).instance;
  return wrapKernelExports(checkExports(instance.exports), variant);
}

async function instantiateFromUrl(url: URL | string, variant: 'simd' | 'scalar'): Promise<Kernels> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`kernels: fetching ${String(url)} gave HTTP ${response.status}`);
  const type = response.headers.get('content-type') ?? '';
  if (typeof WebAssembly.instantiateStreaming === 'function' && type.startsWith('application/wasm')) {
    const { instance } = await WebAssembly.instantiateStreaming(response, {});
    return wrapKernelExports(checkExports(instance.exports), variant);
  }
  return instantiateKernels(await response.arrayBuffer(), variant);
}

function variantOfUrl(url: URL | string): 'simd' | 'scalar' {
  return String(url).includes('scalar') ? 'scalar' : 'simd';
}

/**
 * Loads the WASM kernels, or the JS twin when WASM cannot load (no WebAssembly, bad bytes, fetch failure);
 * check `kind` and `fallbackReason` on the result. `source`: the module's bytes (Node: read
 * `src/kernels/generated/kernels.wasm` yourself), a compiled module, or a URL. Without a source the build
 * next to this file is fetched (SIMD build when supported, else the scalar one).
 */
export async function loadKernels(source?: KernelsSource, options: LoadKernelsOptions = {}): Promise<Kernels> {
  try {
    if (typeof WebAssembly !== 'object') return createJsKernels('WebAssembly is not available');
    if (source === undefined) {
      const variant = options.variant ?? (wasmSimdSupported() ? 'simd' : 'scalar');
      const url = variant === 'simd'
        ? new URL('./generated/kernels.wasm', import.meta.url)
        : new URL('./generated/kernels-scalar.wasm', import.meta.url);
      return await instantiateFromUrl(url, variant);
    }
    if (typeof source === 'string' || source instanceof URL) {
      return await instantiateFromUrl(source, options.variant ?? variantOfUrl(source));
    }
    return await instantiateKernels(source, options.variant ?? 'simd');
  } catch (err) {
    return createJsKernels(err instanceof Error ? err.message : String(err));
  }
}
