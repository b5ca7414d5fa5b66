// Writes the golden base files of cases.ts with the writer as it stands. Run only against the commit named in
// README.md here (the last writer on hyparquet-writer's encoder); the golden test compares later writers to them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeBaseFile } from '../../../../src/format/parquet/write.js';
import { GOLDEN_CASES } from './cases.js';

/** Write `<dir>/<case>.parquet` for every golden case; returns the file names and sizes. */
export function writeGoldenFiles(dir: string): { name: string; bytes: number }[] {
  return GOLDEN_CASES.map((c) => {
    const bytes = writeBaseFile(c.rows, c.options);
    writeFileSync(join(dir, `${c.name}.parquet`), bytes);
    return { name: c.name, bytes: bytes.length };
  });
}
