// What the Map model of table-model.ts expects beyond the user columns: the meta columns of every row
// (`_hoodie_commit_time`, `_hoodie_record_key`, `_hoodie_partition_path`), the hostile partition values and keys
// of the sequences, and incremental reads `(from, to]` derived from the model's history. With a schema stage
// (schema-evolving sequences), the stage's columns too, typed as that schema reads them (table-model-schema.ts).
import type { Table } from '../../src/index.js';
import { readValues, stageColumns, stageValues, type SchemaStage } from './table-model-schema.js';
import type { Model, Row } from './table-model-sequence.js';

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

const line = (r: Row, commit: unknown, key: unknown, path: unknown, extra: readonly string[] = []): string => JSON.stringify([r.part, r.id, String(r.ts), r.val, r.name, commit, key, path, ...extra]);

/**
 * The model's rows with their meta columns, canonical (sorted JSON lines). `commits`: model key → commit time;
 * `stage`: the schema the read uses (schema-evolving sequences).
 */
export function canonWithMeta(model: Model, commits: ReadonlyMap<string, string>, keep: (commit: string) => boolean = () => true, stage?: SchemaStage): string[] {
  const out: string[] = [];
  for (const [k, r] of model) {
    const commit = commits.get(k) ?? '?';
    if (keep(commit)) out.push(line(r, commit, r.id, partitionPathOf(r.part), stageValues(r, stage)));
  }
  return out.sort();
}

/** A table read (snapshot, time travel, read-optimized or incremental) in the form of {@link canonWithMeta}. */
export async function rowsWithMeta(table: Table, options: { asOf?: string; readOptimized?: boolean; from?: string; to?: string } = {}, stage?: SchemaStage): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: [...COLUMNS, ...stageColumns(stage)], ...options })) {
    out.push(line(r as unknown as Row, r._hoodie_commit_time, r._hoodie_record_key, r._hoodie_partition_path, readValues(r, stage)));
  }
  return out.sort();
}

/**
 * The expected incremental read `(from, to]` from the model's history: the table as of `to`, restricted to
 * the rows whose current version was written by a commit in the range (the latest version of each record
 * written in it; records deleted by `to` are absent).
 */
export function expectedIncremental(atTo: Model, commits: ReadonlyMap<string, string>, from: string, to: string, stage?: SchemaStage): string[] {
  return canonWithMeta(atTo, commits, (c) => c > from && c <= to, stage);
}

/**
 * One event of a sequence's history, in commit order: a version of a model key written to the file group of
 * `path` (`row` null: a delete record), or an insert overwrite replacing the groups of `replaced` partition
 * paths (undefined: every partition).
 */
export type WriteEvent =
  | { commit: string; key: string; path: string; row: Row | null }
  | { commit: string; replaced: readonly string[] | undefined };

/**
 * Merge-on-read incremental reads `(from, to]` as Hudi reads them (MergeOnReadIncrementalRelation / …V2: a view
 * over the files the window's writes wrote, each file group's latest slice merged, rows kept whose commit time is
 * a window write's), from the model's history: for each model key and file group (partition path) the window
 * wrote a version to, in a group not replaced by `to` —
 * - when the group's latest base file as of `to` was written in the window (`baseInWindow`: a compaction, a new
 *   group, a rewritten small file) that base holds the key's state, so the answer is the table as of `to`: the
 *   row if its current version's commit is in the window;
 * - otherwise only the window's versions merge: the greatest ordering value wins, a tie goes to the later
 *   version, a delete removes what came before it — a late-arriving update is returned even though the
 *   stored record outside the window wins the snapshot.
 * A key the table no longer holds in that partition at `to` is absent (its last version there was a delete).
 */
export function expectedWindowMerge(
  events: readonly WriteEvent[], atTo: Model, commits: ReadonlyMap<string, string>, from: string, to: string,
  baseInWindow: (path: string, recordKey: string) => boolean, stage?: SchemaStage,
): string[] {
  const versions = new Map<string, Map<string, { row: Row | null; commit: string }[]>>(); // key → path → versions
  for (const e of events) {
    if (e.commit > to) break;
    if ('replaced' in e) {
      for (const byPath of versions.values()) for (const p of [...byPath.keys()]) if (!e.replaced || e.replaced.includes(p)) byPath.delete(p);
      continue;
    }
    if (e.commit <= from) continue;
    const byPath = versions.get(e.key) ?? new Map<string, { row: Row | null; commit: string }[]>();
    versions.set(e.key, byPath);
    byPath.set(e.path, [...(byPath.get(e.path) ?? []), { row: e.row, commit: e.commit }]);
  }
  const out: string[] = [];
  for (const [key, byPath] of versions) {
    for (const [path, list] of byPath) {
      const current = atTo.get(key);
      if (!current || partitionPathOf(current.part) !== path) continue;
      if (baseInWindow(path, current.id)) {
        const commit = commits.get(key) ?? '?';
        if (commit > from && commit <= to) out.push(line(current, commit, current.id, path, stageValues(current, stage)));
        continue;
      }
      let win: { row: Row; commit: string } | undefined;
      for (const v of list) {
        if (v.row === null) win = undefined;
        else if (!win || v.row.ts >= win.row.ts) win = { row: v.row, commit: v.commit };
      }
      if (win) out.push(line(win.row, win.commit, win.row.id, path, stageValues(win.row, stage)));
    }
  }
  return out.sort();
}

/**
 * Which (partition path, record key) pairs of the table as of `to` sit in a file group whose latest base file a
 * write in `(from, to]` wrote (the layout {@link expectedWindowMerge} needs: which base files the window wrote),
 * from the table's file slices and each row's `_hoodie_file_name` (a base file's name starts with its file id;
 * a log record carries the file id).
 */
export async function baseFilesInWindow(table: Table, from: string, to: string): Promise<(path: string, recordKey: string) => boolean> {
  const inWindow = new Set<string>();
  for (const s of await table.fileSlices({ asOf: to })) {
    const t = s.baseFile?.instantTime;
    if (t !== undefined && t > from && t <= to) inWindow.add(`${s.partitionPath}\u0000${s.fileId}`);
  }
  const keys = new Set<string>();
  for await (const r of table.rows({ asOf: to, columns: ['_hoodie_record_key', '_hoodie_partition_path', '_hoodie_file_name'] })) {
    const fileId = String(r._hoodie_file_name).split('_')[0];
    if (inWindow.has(`${r._hoodie_partition_path}\u0000${fileId}`)) keys.add(`${r._hoodie_partition_path}\u0000${r._hoodie_record_key}`);
  }
  return (path, recordKey) => keys.has(`${path}\u0000${recordKey}`);
}
