// DuckDB peer (@duckdb/node-api, native): the load as `COPY (SELECT …) TO … (FORMAT parquet, PARTITION_BY city,
// COMPRESSION snappy)`, the copy-on-write upsert as a lake rewrite (the old files anti-joined with the batch, union
// the batch, `COPY … PARTITION_BY` into a new lake version), and a 3-column filtered scan of parquet files to JS.
// The generated rows reach DuckDB through a CSV file read into an in-memory table before any clock starts.
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { DuckDBInstance } from '@duckdb/node-api';
import { tripRows, upsertBatch } from '../data.mjs';
import { fsyncTree, timedStep } from './durable.mjs';

/** The trips columns as DuckDB types (fare: the table's decimal(10,2)); city is the partition column. */
const COLUMNS = "{'uuid': 'VARCHAR', 'ts': 'BIGINT', 'rider': 'VARCHAR', 'driver': 'VARCHAR', 'begin_lat': 'DOUBLE', 'begin_lon': 'DOUBLE', 'end_lat': 'DOUBLE', 'end_lon': 'DOUBLE', 'fare': 'DECIMAL(10,2)', 'city': 'VARCHAR'}";

const sqlString = (s) => `'${String(s).replace(/'/g, "''")}'`;

/** Rows as CSV lines (no value of the trips data needs quoting; a null driver is an empty field = NULL). */
async function writeCsv(path, rows) {
  const out = createWriteStream(path);
  let chunk = '';
  for (const r of rows) {
    chunk += `${r.uuid},${r.ts},${r.rider},${r.driver ?? ''},${r.begin_lat},${r.begin_lon},${r.end_lat},${r.end_lon},${r.fare},${r.city}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

/** Load rows into an in-memory DuckDB table `name` (untimed data transfer: CSV file, then CREATE TABLE AS). */
async function loadTable(conn, dir, name, rows) {
  const csv = join(dir, `${name}.csv`);
  await writeCsv(csv, rows);
  await conn.run(`CREATE TABLE ${name} AS SELECT * FROM read_csv(${sqlString(csv)}, header = false, columns = ${COLUMNS})`);
  await rm(csv);
}

const countOf = async (conn, sql) => Number((await conn.runAndReadAll(sql)).getRowsJS()[0][0]);

/**
 * The load and the copy-on-write upsert, in one process. args: { dir, rows, upsert }. Untimed: generating the
 * rows and the batch and loading both into in-memory tables. Timed load: the COPY of the table to
 * `dir/lake-v1` (10 partition folders) + fsync of every file and folder written. Timed upsert: the COPY of
 * (lake-v1's files ANTI JOIN batch ON uuid) UNION ALL BY NAME batch to `dir/lake-v2` + fsync of that tree.
 */
export async function duckdbLoadAndUpsert(args) {
  await mkdir(args.dir, { recursive: true });
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const threads = (await conn.runAndReadAll("SELECT current_setting('threads')")).getRowsJS()[0][0];
  const updates = Math.round(args.upsert / 2);
  const inserts = args.upsert - updates;
  const g0 = performance.now();
  await loadTable(conn, args.dir, 'trips', tripRows(0, args.rows));
  await loadTable(conn, args.dir, 'batch', upsertBatch(args.rows, updates, inserts));
  const transferSeconds = (performance.now() - g0) / 1000;

  const lake1 = join(args.dir, 'lake-v1');
  const load = await timedStep(async () => {
    await conn.run(`COPY (SELECT * FROM trips) TO ${sqlString(lake1)} (FORMAT parquet, PARTITION_BY (city), COMPRESSION snappy)`);
    return fsyncTree(lake1);
  });
  const loaded = await countOf(conn, `SELECT count(*) FROM read_parquet(${sqlString(`${lake1}/**/*.parquet`)}, hive_partitioning = true)`);
  if (loaded !== args.rows) throw new Error(`duckdb: the load wrote ${loaded} rows, expected ${args.rows}`);

  const lake2 = join(args.dir, 'lake-v2');
  const old = `read_parquet(${sqlString(`${lake1}/**/*.parquet`)}, hive_partitioning = true)`;
  const upsert = await timedStep(async () => {
    await conn.run(`COPY (SELECT o.* FROM ${old} AS o ANTI JOIN batch AS b ON o.uuid = b.uuid UNION ALL BY NAME SELECT * FROM batch) TO ${sqlString(lake2)} (FORMAT parquet, PARTITION_BY (city), COMPRESSION snappy)`);
    return fsyncTree(lake2);
  });
  const after = await countOf(conn, `SELECT count(*) FROM read_parquet(${sqlString(`${lake2}/**/*.parquet`)}, hive_partitioning = true)`);
  if (after !== args.rows + inserts) throw new Error(`duckdb: the lake rewrite wrote ${after} rows, expected ${args.rows + inserts}`);
  conn.closeSync();
  instance.closeSync?.();
  return {
    threads: Number(threads),
    transferSeconds,
    load: { seconds: load.seconds, cpuSeconds: load.cpuSeconds, files: load.out.files, bytes: load.out.bytes, rows: loaded },
    upsert: { seconds: upsert.seconds, cpuSeconds: upsert.cpuSeconds, files: upsert.out.files, bytes: upsert.out.bytes, rows: after, updates, inserts },
  };
}

/** A DuckDB scanner of `files` (3 columns, `fare > 50`, materialised as JS row objects): count and ts sum. */
export async function duckdbScanner(files) {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const list = `[${files.map(sqlString).join(', ')}]`;
  return {
    async scan() {
      const reader = await conn.runAndReadAll(`SELECT uuid, ts, fare FROM read_parquet(${list}) WHERE fare > 50`);
      let rows = 0;
      let tsSum = 0n;
      for (const row of reader.getRowObjectsJS()) {
        rows++;
        tsSum += BigInt(row.ts);
      }
      return { rows, tsSum };
    },
    close() {
      conn.closeSync();
      instance.closeSync?.();
    },
  };
}
