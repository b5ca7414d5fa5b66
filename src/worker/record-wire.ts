// Incoming records as they cross to a worker: one vector per field instead of one object per record. Structured
// clone writes every object's property names and rebuilds each object key by key on the other side; vectors of
// values clone several times faster, which is what lets the pool win over merging inline. Vectors of strings,
// numbers or bigints go further: packed into buffers (wire-columns.ts) that the pool transfers, so posting a file
// group's records is never a long task on a page's thread.
import type { MergeFileGroupSpec } from '../merge/cow-merge.js';
import type { HoodieRecord } from '../merge/hoodie-record.js';
import { microsFromWire, microsToWire } from '../schema/timestamp-micros.js';
import { columnBuffers, ownedBuffers, packColumn, unpackColumn, type WireColumn } from './wire-columns.js';

/** Records as columns (see {@link recordsToWire}); plain data, structured-clone friendly. */
export interface WireRecords {
  count: number;
  keys: WireColumn;
  /** One partition path for every record, or one per record. */
  partitionPaths: string | string[];
  /** Data field names, in first-seen order, and one vector per field (`undefined` where a record lacks it). */
  fields: string[];
  data: WireColumn[];
  /** Ordering values of every record back to back, `orderingCounts[i]` of them for record `i`. */
  ordering: WireColumn;
  orderingCounts: Uint16Array;
  isDelete: Uint8Array;
  index: Float64Array;
}

/**
 * Awaited while records are turned into columns (a page's thread yields to its event loop): called once per
 * record, then once per packed vector with its length (`units`: the values packed at once).
 */
export type WirePause = (units?: number) => Promise<void> | undefined;

/**
 * Records (an array, or a map's values: a merge's updates are keyed by record key) as columns. A data field
 * that a record lacks (or holds `undefined`) crosses as `undefined` and arrives absent. `pause` (see
 * {@link WirePause}) is awaited when it returns a promise. Transfer {@link wireBuffers} with the result.
 */
export async function recordsToWire(records: readonly HoodieRecord[] | ReadonlyMap<string, HoodieRecord>, pause?: WirePause): Promise<WireRecords> {
  const list = Array.isArray(records) ? (records as readonly HoodieRecord[]) : [...(records as ReadonlyMap<string, HoodieRecord>).values()];
  const count = list.length;
  // Every vector is a packed array (Array.from, then filled in place): structured clone writes a holey one
  // (new Array(n)) element by element with its index, two to three times slower.
  const keys: string[] = Array.from({ length: count });
  const paths: string[] = Array.from({ length: count });
  const fields: string[] = [];
  const data: unknown[][] = [];
  const column = new Map<string, number>();
  const ordering: unknown[] = [];
  const orderingCounts = new Uint16Array(count);
  const isDelete = new Uint8Array(count);
  const index = new Float64Array(count);
  const firstPath = list[0]?.partitionPath;
  let onePath = true;
  for (let i = 0; i < count; i++) {
    const turn = pause?.();
    if (turn !== undefined) await turn;
    const r = list[i] as HoodieRecord;
    keys[i] = r.recordKey;
    paths[i] = r.partitionPath;
    if (r.partitionPath !== firstPath) onePath = false;
    const d = r.data;
    let f = 0;
    for (const name in d) {
      if (!Object.prototype.hasOwnProperty.call(d, name)) continue;
      // Records of one write share a field order: the next field is almost always the next column.
      let at = fields[f] === name ? f : column.get(name);
      if (at === undefined) {
        at = fields.length;
        fields.push(name);
        data.push(Array.from({ length: count }));
        column.set(name, at);
      }
      (data[at] as unknown[])[i] = d[name];
      f = at + 1;
    }
    orderingCounts[i] = r.ordering.length;
    for (const v of r.ordering) ordering.push(v);
    isDelete[i] = r.isDelete ? 1 : 0;
    index[i] = r.index;
  }
  // Each vector packed in one native pass (a join, an encode), with a turn after each as the pause decides.
  const pack = async (values: unknown[]): Promise<WireColumn> => {
    const packed = packColumn(values);
    const turn = pause?.(values.length);
    if (turn !== undefined) await turn;
    return packed;
  };
  const packedKeys = await pack(keys);
  const columns: WireColumn[] = [];
  for (const values of data) columns.push(await pack(values));
  return { count, keys: packedKeys, partitionPaths: onePath && firstPath !== undefined ? firstPath : paths, fields, data: columns, ordering: await pack(ordering), orderingCounts, isDelete, index };
}

/** The buffers of `wire` to transfer with it (packed vectors and the per-record arrays; the sender drops them). */
export function wireBuffers(wire: WireRecords): ArrayBuffer[] {
  return [...columnBuffers(wire.keys), ...wire.data.flatMap(columnBuffers), ...columnBuffers(wire.ordering), ...ownedBuffers([wire.orderingCounts, wire.isDelete, wire.index])];
}

/** The records {@link recordsToWire} sent, rebuilt (data objects with their fields in the sent order). */
export function recordsFromWire(wire: WireRecords): HoodieRecord[] {
  const { count, partitionPaths, fields, orderingCounts, isDelete, index } = wire;
  const keys = unpackColumn(wire.keys);
  const data = wire.data.map(unpackColumn);
  const ordering = unpackColumn(wire.ordering);
  const out: HoodieRecord[] = new Array(count);
  let o = 0;
  for (let i = 0; i < count; i++) {
    const d: Record<string, unknown> = {};
    for (let f = 0; f < fields.length; f++) {
      const v = (data[f] as unknown[])[i];
      if (v !== undefined) d[fields[f] as string] = v;
    }
    const n = orderingCounts[i] as number;
    out[i] = {
      recordKey: keys[i] as string,
      partitionPath: typeof partitionPaths === 'string' ? partitionPaths : (partitionPaths[i] as string),
      data: d,
      ordering: ordering.slice(o, o + n),
      isDelete: isDelete[i] === 1,
      index: index[i] as number,
    };
    o += n;
  }
  return out;
}

/** A map of records {@link recordsToWire} sent, rebuilt by record key (how a merge's updates are keyed). */
export function recordMapFromWire(wire: WireRecords): Map<string, HoodieRecord> {
  return new Map(recordsFromWire(wire).map((r) => [r.recordKey, r]));
}

/** A merge spec as it crosses to a worker: its records as columns, microsecond timestamps as markers. */
export type WireMergeSpec = Omit<MergeFileGroupSpec, 'updates' | 'inserts'> & { updates: WireRecords; inserts: WireRecords };

/** `spec` for a worker (see {@link WireMergeSpec}); `pause` as in {@link recordsToWire}. */
export async function mergeSpecToWire(spec: MergeFileGroupSpec, pause?: WirePause): Promise<WireMergeSpec> {
  const wire = { ...spec, updates: await recordsToWire(spec.updates, pause), inserts: await recordsToWire(spec.inserts, pause) };
  // Microsecond timestamps cross as markers: a cloned MicrosDate would arrive without its microseconds.
  return microsToWire(wire, spec.schema);
}

/** The spec {@link mergeSpecToWire} sent, with its records rebuilt (the receiver owns its clone). */
export function mergeSpecFromWire<T extends WireMergeSpec>(wire: T): Omit<T, 'updates' | 'inserts'> & MergeFileGroupSpec {
  const spec = microsFromWire(wire, wire.schema);
  return { ...spec, updates: recordMapFromWire(spec.updates), inserts: recordsFromWire(spec.inserts) };
}
