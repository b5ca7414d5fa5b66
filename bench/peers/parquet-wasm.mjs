// parquet-wasm peer (arrow-rs compiled to WASM, its wasm inside the package): writing the load's 10 partitions,
// one SNAPPY parquet file each (100,000-row row groups, as lakelet's default), from Arrow tables built untimed.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Decimal, Field, Schema, Table, Utf8, makeData, makeVector, tableToIPC, vectorFromArray } from 'apache-arrow';
import { CITIES, tripRows } from '../data.mjs';
import { fsyncPath, timedStep, writeFileSynced } from './durable.mjs';

const require = createRequire(import.meta.url);

/** The decimal(10,2) fare strings as an Arrow Decimal128 vector (unscaled cents, little-endian 32-bit words). */
function fareVector(fares) {
  const words = new Uint32Array(fares.length * 4);
  for (let i = 0; i < fares.length; i++) {
    const cents = Math.round(Number(fares[i]) * 100);
    words[i * 4] = cents >>> 0;
    words[i * 4 + 1] = Math.floor(cents / 4294967296);
  }
  return makeVector(makeData({ type: new Decimal(2, 10, 128), length: fares.length, nullCount: 0, data: words }));
}

/** Strings (null where null) as an Arrow Utf8 vector, built from one UTF-8 buffer and its offsets (faster than a builder). */
function utf8Vector(values) {
  const offsets = new Int32Array(values.length + 1);
  const bitmap = new Uint8Array((values.length + 7) >> 3);
  let nulls = 0;
  let bytes = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) nulls++;
    else {
      bitmap[i >> 3] |= 1 << (i & 7);
      bytes += Buffer.byteLength(v);
    }
    offsets[i + 1] = bytes;
  }
  const buf = Buffer.alloc(bytes);
  for (let i = 0; i < values.length; i++) if (values[i] !== null && values[i] !== undefined) buf.write(values[i], offsets[i]);
  const data = new Uint8Array(buf.buffer, buf.byteOffset, bytes);
  return makeVector(makeData({ type: new Utf8(), length: values.length, nullCount: nulls, nullBitmap: nulls > 0 ? bitmap : undefined, valueOffsets: offsets, data }));
}

/** One partition's rows as an Arrow table (the partition column is in the folder name, as DuckDB's PARTITION_BY). */
function arrowTable(rows) {
  const col = (k) => rows.map((r) => r[k]);
  const f64 = (k) => vectorFromArray(Float64Array.from(rows, (r) => r[k]));
  const vectors = {
    uuid: utf8Vector(col('uuid')),
    ts: makeVector(BigInt64Array.from(rows, (r) => BigInt(r.ts))),
    rider: utf8Vector(col('rider')),
    driver: utf8Vector(col('driver')),
    begin_lat: f64('begin_lat'),
    begin_lon: f64('begin_lon'),
    end_lat: f64('end_lat'),
    end_lon: f64('end_lon'),
    fare: fareVector(col('fare')),
  };
  const schema = new Schema(Object.entries(vectors).map(([name, v]) => new Field(name, v.type, name === 'driver')));
  return new Table(schema, vectors);
}

/**
 * args: { dir, rows }. Untimed: generating the rows, grouping them by city, building one Arrow table per city,
 * and handing each to the WASM side (IPC stream → `Table.fromIPCStream`). Timed: `writeParquet` of the 10
 * tables (SNAPPY, 100,000-row row groups), each file written and fsynced, then every folder fsynced.
 */
export async function parquetWasmLoad(args) {
  const wasm = require('parquet-wasm/node');
  const byCity = new Map(CITIES.map((c) => [c, []]));
  const g0 = performance.now();
  for (const r of tripRows(0, args.rows)) byCity.get(r.city).push(r);
  const inputs = [];
  for (const [city, rows] of byCity) {
    if (rows.length === 0) continue;
    inputs.push({ city, rows: rows.length, table: wasm.Table.fromIPCStream(tableToIPC(arrowTable(rows), 'stream')) });
  }
  byCity.clear();
  const transferSeconds = (performance.now() - g0) / 1000;
  const props = () => new wasm.WriterPropertiesBuilder().setCompression(wasm.Compression.SNAPPY).setMaxRowGroupSize(100_000).build();
  await mkdir(args.dir, { recursive: true });
  const step = await timedStep(async () => {
    let bytes = 0;
    for (const x of inputs) {
      const folder = join(args.dir, `city=${x.city}`);
      await mkdir(folder);
      const out = wasm.writeParquet(x.table, props());
      bytes += out.byteLength;
      await writeFileSynced(join(folder, 'part-0.parquet'), out);
      await fsyncPath(folder);
    }
    await fsyncPath(args.dir);
    return bytes;
  });
  return { transferSeconds, load: { seconds: step.seconds, cpuSeconds: step.cpuSeconds, files: inputs.length, bytes: step.out, rows: inputs.reduce((n, x) => n + x.rows, 0) } };
}
