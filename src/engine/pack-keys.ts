// Record keys packed for the kernels on a thread that must stay responsive: packKeys a chunk at a time, with an
// event-loop turn between chunks (a partition, or a dedupe, may hold a whole batch of keys).
import { packKeys, type PackedKeys } from '../kernels/kernels.js';
import { yieldToEventLoop } from './yield.js';

/** packKeys in chunks with event-loop turns between them (a partition may hold a whole batch of keys). */
export async function packKeysInChunks(list: readonly string[], chunk = 5000): Promise<PackedKeys> {
  if (list.length <= chunk) return packKeys(list);
  const parts: PackedKeys[] = [];
  for (let i = 0; i < list.length; i += chunk) {
    parts.push(packKeys(list.slice(i, i + chunk)));
    await yieldToEventLoop();
  }
  const total = parts.reduce((n, p) => n + (p.offsets[p.offsets.length - 1] ?? 0), 0);
  const bytes = new Uint8Array(total);
  const offsets = new Uint32Array(list.length + 1);
  let at = 0;
  let k = 0;
  for (const p of parts) {
    const used = p.offsets[p.offsets.length - 1] ?? 0;
    bytes.set(p.bytes.subarray(0, used), at);
    for (let j = 0; j < p.offsets.length - 1; j++) offsets[k++] = at + (p.offsets[j] as number);
    at += used;
  }
  offsets[k] = at;
  return { bytes, offsets };
}
