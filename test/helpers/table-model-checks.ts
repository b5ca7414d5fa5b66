// What the Map model of table-model.ts expects beyond the user columns: the meta columns of every row
// (`_hoodie_commit_time`, `_hoodie_record_key`, `_hoodie_partition_path`), the hostile partition values and keys
// of the sequences, and incremental reads `(from, to]` derived from the model's history.
import type { Table } from '../../src/index.js';
import type { Model, Row } from './table-model.js';

/**
 * Partition values of the widened sequences (six, like the four plain ones in cost): a plain one, a slash, a
 * percent, `..`, spaces with an emoji, and the empty value (which Hudi writes as `__HIVE_DEFAULT_PARTITION__`).
 */
export const HOSTILE_PARTS = ['p0', 'a/b', '50%off', '..', ' sp ace \u{1F986}', ''];

/** Record keys of the widened sequences: plain `k00…` keys plus commas, colons, an emoji and a leading space. */
export const HOSTILE_KEYS = [
  ...Array.from({ length: 34 }, (_, i) => `k${String(i).padStart(2, '0')}`),
  'a,b', 'a:b', '\u{1F986}', ' lead', 'k 1', '%41',
];

/**
 * The `_hoodie_partition_path` of a row whose `part` is `value` (hive style, field `part`): Hudi's null/empty
 * marker for `''`; otherwise the value, with the characters lakelet always escapes (DESIGN / partition-path.ts:
 * `/`, `\`, `%`, controls and DEL, as `%XX`) so that no value adds directory levels. Everything else (spaces,
 * `..` behind the `part=` prefix, non-ASCII) stays as it is, as Hudi writes it with urlencode off.
 */
export function partitionPathOf(value: string): string {
  if (value === '') return 'part=__HIVE_DEFAULT_PARTITION__';
  let out = '';
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    out += ch.length === 1 && (code < 32 || code === 0x7f || ch === '/' || ch === '\\' || ch === '%') ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : ch;
  }
  return `part=${out}`;
}

const COLUMNS = ['id', 'part', 'ts', 'val', 'name', '_hoodie_commit_time', '_hoodie_record_key', '_hoodie_partition_path'];

const line = (r: Row, commit: unknown, key: unknown, path: unknown): string => JSON.stringify([r.part, r.id, String(r.ts), r.val, r.name, commit, key, path]);

/** The model's rows with their meta columns, canonical (sorted JSON lines). `commits`: model key → commit time. */
export function canonWithMeta(model: Model, commits: ReadonlyMap<string, string>, keep: (commit: string) => boolean = () => true): string[] {
  const out: string[] = [];
  for (const [k, r] of model) {
    const commit = commits.get(k) ?? '?';
    if (keep(commit)) out.push(line(r, commit, r.id, partitionPathOf(r.part)));
  }
  return out.sort();
}

/** A table read (snapshot, time travel, read-optimized or incremental) in the form of {@link canonWithMeta}. */
export async function rowsWithMeta(table: Table, options: { asOf?: string; readOptimized?: boolean; from?: string; to?: string } = {}): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: COLUMNS, ...options })) {
    out.push(line(r as unknown as Row, r._hoodie_commit_time, r._hoodie_record_key, r._hoodie_partition_path));
  }
  return out.sort();
}

/**
 * The expected incremental read `(from, to]` from the model's history: the table as of `to`, restricted to
 * the rows whose current version was written by a commit in the range (the latest version of each record
 * written in it; records deleted by `to` are absent).
 */
export function expectedIncremental(atTo: Model, commits: ReadonlyMap<string, string>, from: string, to: string): string[] {
  return canonWithMeta(atTo, commits, (c) => c > from && c <= to);
}
