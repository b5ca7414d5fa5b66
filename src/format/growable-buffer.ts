// The growable byte buffer both of lakelet's binary writers stand on: the parquet encoder's ByteSink and the
// Avro writer (AvroWriter). Capacity doubles, so appending n bytes costs amortised O(n).

/** A Uint8Array that grows by doubling; bytes `[0, pos)` are written. */
export class GrowableBuffer {
  /** The backing buffer (replaced when it grows: do not hold on to it across writes). */
  buf: Uint8Array;
  /** Bytes written so far. */
  pos = 0;
  /** A DataView over `buf`, for fixed-width numbers. */
  protected view: DataView;

  constructor(capacity: number) {
    this.buf = new Uint8Array(Math.max(16, capacity));
    this.view = new DataView(this.buf.buffer);
  }

  /** Make room for `n` more bytes. */
  ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
}
