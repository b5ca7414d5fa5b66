// Fixture access from Node tests: open a zipped Spark-written table of ../shared/fixtures/hudi-rs in place.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { memoryStorage, openTable, tableStorage, zipStorage, type Storage, type Table } from '../../src/index.js';

/** Bytes of a file under the fixtures folder. */
export function fixtureBytes(relativePath: string): Uint8Array {
  return new Uint8Array(readFileSync(join(inject('FIXTURES_DIR'), relativePath)));
}

/** The table stored in a fixture zip, as a Storage rooted at the table. */
export function fixtureStorage(zipPath: string): Promise<Storage> {
  return tableStorage(zipStorage(fixtureBytes(zipPath), { label: zipPath }));
}

/** Open the table of a fixture zip, e.g. `sample_table/cow/v6_nonpartitioned.zip`. */
export async function openFixture(zipPath: string): Promise<Table> {
  return openTable(await fixtureStorage(zipPath));
}

/** Collect an async iterable. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** A writable in-memory copy of a fixture table, for tests that damage files. */
export async function fixtureCopy(zipPath: string): Promise<Storage> {
  const source = await fixtureStorage(zipPath);
  const files: [string, Uint8Array][] = [];
  for (const f of await source.list('', { recursive: true })) files.push([f.path, await source.read(f.path)]);
  return memoryStorage({ files, label: `copy of ${zipPath}` });
}
