// Shared pieces of the CLI write tests (cli-write*.test.ts): a trips table made by `lakelet create`, its input
// lines, and the rows `lakelet query` returns without meta columns.
import { expect } from 'vitest';
import { jsonLines, runCli } from './cli-helpers.js';

/** Rows of `lakelet query <dir>` without meta columns, sorted by `key`. */
export async function queryRows(dir: string, key = 'id', ...extra: string[]): Promise<Record<string, unknown>[]> {
  const r = await runCli('query', dir, ...extra);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return jsonLines(r.out)
    .map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('_hoodie_'))))
    .sort((a, b) => String(a[key]).localeCompare(String(b[key]), 'en', { numeric: true }));
}

/** `lakelet create` of a COW trips table (key id, ordering ts, partitioned by city) at a fresh path of `fresh`. */
export async function createTripsIn(fresh: (name: string) => string, extra: string[] = []): Promise<string> {
  const dir = fresh('trips');
  const r = await runCli('create', dir, '--name', 'trips', '--type', 'cow', '--record-key', 'id', '--ordering-field', 'ts', '--partition-by', 'city', ...extra);
  expect(r).toMatchObject({ code: 0, err: '' });
  return dir;
}

/** Three trips as JSON lines (a blank line among them), one with a big integer beyond 2^53. */
export const TRIPS = [
  '{"id": 1, "name": "a", "ts": 10, "city": "sf", "big": 9007199254740993, "fare": 1.5}',
  '{"id": 2, "name": "b", "ts": 10, "city": "nyc", "big": -1, "fare": 2.25}',
  '',
  '{"id": 3, "name": "c", "ts": 10, "city": "sf", "big": 2, "fare": 3}',
].join('\n');
