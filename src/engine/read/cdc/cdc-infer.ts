// Change inference for one file group around one write, without CDC files (rfc-51's HoodieCDCInferCase): the
// group's records before the write against its records after it, by record key. Covers BASE_FILE_INSERT (no
// before), BASE_FILE_DELETE and REPLACE_COMMIT (no after), a COW rewrite and a MOR log append (LOG_FILE). Pure.
import { isMetaField } from '../../../schema/table-schema.js';
import { parseInstantTime } from '../../../timeline/instant-time.js';

/** A row image: column name → value (lakelet's value model). */
export type Row = Record<string, unknown>;

/** The kind of change: insert, update, delete (Debezium's letters, as Hudi's CDC query gives them). */
export type ChangeOp = 'i' | 'u' | 'd';

/**
 * One change of a CDC query (Hudi's `op`, `ts_ms`, `before`, `after`), images without meta columns:
 * inserts have no `before`, deletes no `after`, updates both.
 */
export interface ChangeRecord {
  op: ChangeOp;
  /** The commit's instant time as epoch milliseconds (the instant read as UTC; Hudi's Spark query gives the instant string). */
  ts_ms: number;
  /** The write's instant (requested) time, `yyyyMMddHHmmssSSS`. */
  commitTime: string;
  before: Row | null;
  after: Row | null;
}

const KEY = '_hoodie_record_key';
const COMMIT_TIME = '_hoodie_commit_time';

/** The row without Hudi's meta columns (and `_hoodie_operation`), as CDC images are. */
export function changeImage(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) if (!isMetaField(k) && k !== '_hoodie_operation') out[k] = v;
  return out;
}

/** The epoch milliseconds of an instant time; NaN for a time that does not parse (kept, not thrown). */
export function instantMillis(instant: string): number {
  try {
    return parseInstantTime(instant).getTime();
  } catch {
    return Number.NaN;
  }
}

const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Rows by record key (rows without a string key are left out: they cannot be matched). */
function byKey(rows: readonly Row[]): Map<string, Row> {
  const out = new Map<string, Row>();
  for (const r of rows) {
    const k = r[KEY];
    if (typeof k === 'string') out.set(k, r);
  }
  return out;
}

/**
 * The changes one write made to one file group, ordered by record key: keys only after it are inserts, keys
 * only before it deletes, keys in both whose after-row carries the write's commit time updates; rows the write
 * left alone (an older commit time) give nothing. `before` and `after` are the group's merged records (meta
 * columns included) as of just before and just after the write.
 */
export function inferGroupChanges(before: readonly Row[], after: readonly Row[], commitTime: string): ChangeRecord[] {
  const ts = instantMillis(commitTime);
  const old = byKey(before);
  const now = byKey(after);
  const keys = [...new Set([...old.keys(), ...now.keys()])].sort(compareKeys);
  const out: ChangeRecord[] = [];
  for (const k of keys) {
    const b = old.get(k);
    const a = now.get(k);
    if (a === undefined && b !== undefined) out.push({ op: 'd', ts_ms: ts, commitTime, before: changeImage(b), after: null });
    else if (b === undefined && a !== undefined) out.push({ op: 'i', ts_ms: ts, commitTime, before: null, after: changeImage(a) });
    else if (a !== undefined && b !== undefined && a[COMMIT_TIME] === commitTime) out.push({ op: 'u', ts_ms: ts, commitTime, before: changeImage(b), after: changeImage(a) });
  }
  return out;
}
