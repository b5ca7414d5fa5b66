// The clustering bench's filtered query (bench/clustering.mjs): the rows of a `ts` filter read through a storage
// wrapper counting requests and bytes per path — the files lakelet opens and those whose data (not just the
// footer) it fetched — beside the base files whose footer statistics do not rule the filter out.
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';

/** CPU seconds (user + system) of this process so far. */
export const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** Storage wrapper counting reads per path: requests, bytes, and the byte ranges asked for. */
function countingStorage(inner) {
  const reads = new Map();
  const wrapped = {
    label: `counting ${inner.label}`,
    readOnly: inner.readOnly,
    head: (p) => inner.head(p),
    async read(p, range) {
      const bytes = await inner.read(p, range);
      let r = reads.get(p);
      if (!r) reads.set(p, (r = { requests: 0, bytes: 0, starts: [] }));
      r.requests++;
      r.bytes += bytes.length;
      r.starts.push(range ? range.start : 0);
      return bytes;
    },
    write: (p, b) => inner.write(p, b),
    writeIfAbsent: (p, b) => inner.writeIfAbsent(p, b),
    list: (p, o) => inner.list(p, o),
    delete: (p) => inner.delete(p),
  };
  return { storage: wrapped, reads, reset: () => reads.clear() };
}

/** Where a parquet file's footer starts (its last 8 bytes: footer length + `PAR1`), read without counting. */
async function footerStart(path) {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const tail = Buffer.alloc(8);
    await fh.read(tail, 0, 8, size - 8);
    return size - 8 - tail.readUInt32LE(0);
  } finally {
    await fh.close();
  }
}


/**
 * Base files whose footer statistics (min/max of `ts` over their row groups, the values Hudi's column_stats index
 * holds) do not rule the filter out: the files a reader with file-level data skipping reads.
 */
async function filesMatchingStats(dir, slices, cutoff) {
  let n = 0;
  for (const s of slices) {
    if (!s.baseFile) continue;
    const md = await parquetMetadataAsync(await asyncBufferFromFile(join(dir, s.baseFile.path)));
    let min;
    for (const g of md.row_groups) {
      const st = g.columns.find((c) => c.meta_data?.path_in_schema.join('.') === 'ts')?.meta_data?.statistics;
      const v = st?.min_value ?? st?.min;
      if (v === undefined || v === null) min = -Infinity;
      else if (min === undefined || BigInt(v) < min) min = BigInt(v);
    }
    if (min === undefined || min === -Infinity || min < BigInt(cutoff)) n++;
  }
  return n;
}

/** The filtered query through a counting storage: rows, ts sum, files opened and files whose data was read. */
export async function filteredQuery(lakelet, dir, cutoff) {
  const counter = countingStorage(lakelet.nodeFsStorage(dir));
  const table = await lakelet.openTable(counter.storage);
  const slices = await table.fileSlices();
  counter.reset();
  const t = performance.now();
  const c = cpu();
  let rows = 0;
  let tsSum = 0n;
  for await (const row of table.rows({ columns: ['uuid', 'ts'], filters: [['ts', '<', cutoff]] })) {
    rows++;
    tsSum += BigInt(row.ts);
  }
  const seconds = (performance.now() - t) / 1000;
  const cpuSeconds = cpu() - c;
  let opened = 0;
  let dataRead = 0;
  let requests = 0;
  let bytes = 0;
  for (const [path, r] of counter.reads) {
    requests += r.requests;
    bytes += r.bytes;
    if (!path.endsWith('.parquet')) continue;
    opened++;
    const start = await footerStart(join(dir, path));
    if (r.starts.some((s) => s < start - 4)) dataRead++;
  }
  const statsMatch = await filesMatchingStats(dir, slices, cutoff);
  return { rows, tsSum: tsSum.toString(), baseFiles: slices.length, statsMatch, filesOpened: opened, filesFetchedBeyondFooter: dataRead, requests, bytes, seconds, cpuSeconds };
}
