// Single files out of a fixture zip, by path suffix, for tests that compare bytes with what Hudi wrote.
import { unzipSync } from 'fflate';
import { fixtureBytes } from './fixtures.js';

const cache = new Map<string, Record<string, Uint8Array>>();

/** All entries of a fixture zip (macOS junk dropped), name → bytes. */
export function zipEntries(zipPath: string): Record<string, Uint8Array> {
  let files = cache.get(zipPath);
  if (files === undefined) {
    files = unzipSync(fixtureBytes(zipPath), { filter: (f) => !f.name.startsWith('__MACOSX/') });
    cache.set(zipPath, files);
  }
  return files;
}

/** The one entry of a fixture zip whose name is `suffix` or ends with `/suffix`; throws when there is none or several. */
export function zipEntry(zipPath: string, suffix: string): Uint8Array {
  const hits = Object.entries(zipEntries(zipPath)).filter(([name]) => name === suffix || name.endsWith(`/${suffix}`));
  if (hits.length !== 1) throw new Error(`${zipPath}: ${hits.length} entries end with /${suffix}`);
  return (hits[0] as [string, Uint8Array])[1];
}
