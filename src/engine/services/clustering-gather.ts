// Gathering a window of a clustering group's rows in output order into one batch of column vectors: positions
// [from, to) of the order name rows of the group (numbered chunk by chunk, clustering-sources.ts); each chunk
// holding some of them is read once for the window (the last chunk read is kept for the next window, so rows in
// input order read every chunk once) and its rows copied to their output positions, typed vectors staying typed.
import type { ColumnBatch } from '../../format/parquet/column-batch.js';
import type { GroupSource } from './clustering-sources.js';

type Vector = unknown[] | Float64Array | Float32Array | Int32Array | BigInt64Array;

/** A typed array the writer takes in one copy (see BaseFileWriter.writeColumns), else undefined. */
function typedKind(v: ArrayLike<unknown>): (new (n: number) => Vector) | undefined {
  if (v instanceof Float64Array) return Float64Array;
  if (v instanceof Float32Array) return Float32Array;
  if (v instanceof Int32Array) return Int32Array;
  if (v instanceof BigInt64Array) return BigInt64Array;
  return undefined;
}

/** Reads a group's rows in an order, window by window. */
export class GroupGather {
  /** Chunk of each row of the group, and each chunk's first row. */
  private readonly chunkOf: Int32Array;
  private readonly starts: Int32Array;
  private cached: { chunk: number; batch: ColumnBatch } | undefined;

  /** `order[k]` is the group row at output position k (undefined: input order). */
  constructor(private readonly source: GroupSource, private readonly order: Int32Array | undefined, private readonly names: readonly string[]) {
    const { lengths } = source;
    this.starts = new Int32Array(lengths.length + 1);
    this.chunkOf = new Int32Array(source.rows);
    for (let c = 0; c < lengths.length; c++) {
      this.starts[c + 1] = this.starts[c]! + lengths[c]!;
      this.chunkOf.fill(c, this.starts[c]!, this.starts[c + 1]!);
    }
  }

  private row(k: number): number {
    return this.order ? this.order[k]! : k;
  }

  private async chunk(c: number): Promise<ColumnBatch> {
    if (this.cached?.chunk === c) return this.cached.batch;
    this.cached = undefined; // drop the old chunk before reading the next
    const batch = await this.source.read(c);
    this.cached = { chunk: c, batch };
    return batch;
  }

  /** Output positions [from, to) as a batch of every column; `fileName` becomes each row's `_hoodie_file_name`. */
  async window(from: number, to: number, fileName: string): Promise<ColumnBatch> {
    const m = to - from;
    // Output positions grouped by chunk (a counting sort), chunks in ascending order.
    const counts = new Map<number, number>();
    for (let k = from; k < to; k++) {
      const c = this.chunkOf[this.row(k)]!;
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    const touched = [...counts.keys()].sort((a, b) => a - b);
    const startOf = new Map<number, number>();
    let at = 0;
    for (const c of touched) {
      startOf.set(c, at);
      at += counts.get(c)!;
    }
    const next = new Map(startOf);
    const byChunk = new Int32Array(m);
    for (let k = from; k < to; k++) {
      const c = this.chunkOf[this.row(k)]!;
      const o = next.get(c)!;
      byChunk[o] = k - from;
      next.set(c, o + 1);
    }
    const out: Record<string, Vector> = {};
    // The kept chunk first: in input order it holds the window's first rows.
    if (this.cached && counts.has(this.cached.chunk)) touched.unshift(...touched.splice(touched.indexOf(this.cached.chunk), 1));
    for (const c of touched) {
      const batch = await this.chunk(c);
      const first = startOf.get(c)!;
      const last = first + counts.get(c)!;
      const base = this.starts[c]!;
      for (const name of this.names) {
        const src = batch.columns[name];
        let dst = out[name];
        if (dst === undefined) {
          const Kind = src === undefined ? undefined : typedKind(src);
          dst = out[name] = Kind ? new Kind(m) : new Array<unknown>(m);
        } else if (!Array.isArray(dst) && (src === undefined || typedKind(src) !== dst.constructor)) {
          dst = out[name] = Array.from(dst as ArrayLike<unknown>);
        }
        const d = dst as unknown[];
        for (let j = first; j < last; j++) {
          const pos = byChunk[j]!;
          d[pos] = src === undefined ? null : src[this.row(from + pos) - base];
        }
      }
    }
    const columns: Record<string, ArrayLike<unknown>> = out;
    if (this.names.includes('_hoodie_file_name')) columns._hoodie_file_name = new Array<string>(m).fill(fileName);
    return { length: m, columns };
  }
}
