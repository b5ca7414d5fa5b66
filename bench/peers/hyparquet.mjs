// hyparquet peer (pure JS parquet reader, with hyparquet-compressors): the 3-column filtered scan over lakelet's
// own latest base files, as a user of hyparquet would write it: read the columns as objects, filter in JS.
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

/** Scan `files` for `columns` where `fare > 50`: count and ts sum (a bigint, to compare exactly across readers). */
export async function hyparquetScan(files, columns = ['uuid', 'ts', 'fare']) {
  let rows = 0;
  let tsSum = 0n;
  for (const path of files) {
    const file = await asyncBufferFromFile(path);
    for (const row of await parquetReadObjects({ file, columns, compressors })) {
      if (!(Number(row.fare) > 50)) continue;
      rows++;
      tsSum += BigInt(row.ts);
    }
  }
  return { rows, tsSum };
}
