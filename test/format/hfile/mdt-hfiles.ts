// Test helper: every HFile of a fixture's metadata table — the base `.hfile` files and the HFILE_DATA blocks
// inside its log files (framing read with src/format/log/) — as bytes with a label.
import { scanLogBlocks, type LogBlockHeader } from '../../../src/format/log/block.js';
import { METADATA_TABLE_DIR } from '../../../src/layout.js';
import { fixtureStorage } from '../../helpers/fixtures.js';

/** One HFile found in a fixture's metadata table. */
export interface FixtureHFile {
  /** `<path>` for a base file, `<log path>@<block offset>` for a log block. */
  label: string;
  /** Path of the file holding it, relative to the table root. */
  path: string;
  kind: 'base' | 'log-block';
  bytes: Uint8Array;
  /** The log block's header, for a log block. */
  header?: LogBlockHeader;
}

/** The three fixtures with a metadata table. */
export const MDT_FIXTURES = {
  v9Cow: 'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip',
  v9Mor: 'sample_table/mor/avro/v9_nonpartitioned_rollback.zip',
  v8Mor: 'quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip',
} as const;

/** Every HFile (base files and log HFILE_DATA blocks) of the fixture `zip`'s metadata table. */
export async function fixtureHFiles(zip: string): Promise<FixtureHFile[]> {
  const storage = await fixtureStorage(zip);
  const out: FixtureHFile[] = [];
  const files = (await storage.list(METADATA_TABLE_DIR, { recursive: true })).map((f) => f.path).sort();
  for (const path of files) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (name.endsWith('.hfile')) {
      out.push({ label: path, path, kind: 'base', bytes: await storage.read(path) });
    } else if (name.includes('.log.')) {
      for (const block of scanLogBlocks(await storage.read(path), path).blocks) {
        if (block.type === 'HFILE_DATA') out.push({ label: `${path}@${block.offset}`, path, kind: 'log-block', bytes: block.content, header: block.header });
      }
    }
  }
  return out;
}
