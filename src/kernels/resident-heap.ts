// The resident region of the kernels' linear memory (below the arena floor): buffers that outlive one kernel
// call, such as the bloom bits of a BloomProbe. Moved out of wasm-kernels.ts, which keeps the per-call arena.
import { LakeletError } from '../errors.js';

/** The arena exports of the kernel module the resident heap needs. */
export interface ArenaExports {
  heapBase(): number;
  setFloor(ptr: number): number;
}

/**
 * The resident region below the arena floor: buffers that outlive one call (bloom bits of a BloomProbe).
 * First fit over the gaps between live blocks; the floor follows the end of the last live block.
 */
export class ResidentHeap {
  private blocks: { ptr: number; size: number }[] = [];
  constructor(private readonly ex: ArenaExports) {}

  /** Reserves `bytes` (16-byte aligned) and moves the floor above it; `INVALID_ARGUMENT` when memory cannot grow. */
  alloc(bytes: number): number {
    const size = Math.ceil(Math.max(bytes, 1) / 16) * 16;
    let prevEnd = this.ex.heapBase() >>> 0;
    let at = this.blocks.length;
    for (let i = 0; i < this.blocks.length; i++) {
      const b = this.blocks[i];
      if (b === undefined) continue;
      if (b.ptr - prevEnd >= size) { at = i; break; }
      prevEnd = b.ptr + b.size;
    }
    this.blocks.splice(at, 0, { ptr: prevEnd, size });
    if (!this.moveFloor()) {
      this.blocks.splice(at, 1);
      this.moveFloor();
      throw new LakeletError('INVALID_ARGUMENT', `kernels: ${bytes} resident bytes do not fit in wasm memory`, { value: bytes });
    }
    return prevEnd;
  }

  /** Releases the block at `ptr` (unknown pointers are ignored) and lowers the floor where it can. */
  free(ptr: number): void {
    const i = this.blocks.findIndex((b) => b.ptr === ptr);
    if (i < 0) return;
    this.blocks.splice(i, 1);
    this.moveFloor();
  }

  private moveFloor(): boolean {
    const last = this.blocks[this.blocks.length - 1];
    return this.ex.setFloor(last === undefined ? this.ex.heapBase() >>> 0 : last.ptr + last.size) !== 0;
  }
}
