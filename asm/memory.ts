// The arena: JS owns linear memory through a bump allocator above a movable floor (resident buffers below).

// ---------------------------------------------------------------------------------------------------------
// Arena: a bump allocator over linear memory above a floor. Below the floor JS keeps resident buffers (e.g. a
// bloom filter's bits that many probe calls share); JS manages that region itself and moves the floor with
// setFloor(). JS calls reset() before each batch, then alloc() for every buffer it needs. Memory only grows;
// JS must re-create its views after alloc() or setFloor().

let top: usize = 0;
let floor: usize = 0;

/** First usable byte (16-byte aligned) above the module's static data. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

/** Forget every scratch allocation; the next alloc() starts again at the floor. */
export function reset(): void {
  if (floor == 0) floor = heapBase();
  top = floor;
}

/** Moves the floor (16-byte aligned, >= heapBase()) and resets the arena; returns 0 when memory cannot grow. */
export function setFloor(ptr: usize): i32 {
  const f = max<usize>((ptr + 15) & ~(<usize>15), heapBase());
  const have = <usize>memory.size();
  const need = (f + 0xffff) >>> 16;
  if (need > have) {
    if (memory.grow(<i32>(need - have)) < 0) return 0;
  }
  floor = f;
  top = f;
  return 1;
}

/** Reserves `size` bytes (16-byte aligned), growing memory when needed. Returns 0 when memory cannot grow. */
export function alloc(size: usize): usize {
  if (top == 0) reset();
  const ptr = top;
  const end = (ptr + size + 15) & ~(<usize>15);
  if (end < ptr) return 0; // wrapped around
  const have = <usize>memory.size();
  const need = (end + 0xffff) >>> 16;
  if (need > have) {
    if (memory.grow(<i32>(need - have)) < 0) return 0;
  }
  top = end;
  return ptr;
}

