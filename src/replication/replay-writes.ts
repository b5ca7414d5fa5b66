// A rebase's replay: the source's unpublished writes become new commits on the target, through the target
// Table's normal write path (its conflict check and retries). Each write's records come from the source's CDC
// query (what that instant changed: after images of inserts and updates, before images of deletes), so the
// operation and ordering values are kept and the target's merge resolves conflicting updates by ordering.
// Every replayed commit is tagged in its extraMetadata with the source instant, so a re-run skips it.
import { unsupported } from '../errors.js';
import type { Table } from '../table/table.js';
import type { WriteOptions } from '../engine/write/write-options.js';
import type { ChangeRecord } from '../engine/read/cdc/cdc-infer.js';
import { compareInstantTimes, INIT_INSTANT_TIME, type Instant } from '../timeline/instant.js';

/** The commit metadata key naming the source instant (and part) a replayed commit replays. */
export const REBASE_TAG = 'lakelet.replicate.rebaseOf';

/** One commit a rebase wrote on the target. */
export interface ReplayedWrite {
  /** The source's completed instant file the commit replays. */
  sourceInstant: string;
  /** The new commit's instant time on the target. */
  instant: string;
  operation: 'UPSERT' | 'INSERT' | 'DELETE';
  /** Records written (rows upserted or inserted, keys deleted). */
  records: number;
}

/** Operations whose commits change no record: not replayed (the target runs its own services). */
const SERVICE_OPERATIONS: ReadonlySet<string> = new Set(['COMPACT', 'LOG_COMPACT', 'CLUSTER']);
/** Operations replayed as inserts; every other record-changing operation but the replacing ones is an upsert. */
const INSERT_OPERATIONS: ReadonlySet<string> = new Set(['INSERT', 'INSERT_PREPPED', 'BULK_INSERT', 'BULK_INSERT_PREPPED']);
const REPLACE_OPERATIONS: ReadonlySet<string> = new Set(['INSERT_OVERWRITE', 'INSERT_OVERWRITE_TABLE', 'DELETE_PARTITION']);

/** A source write to replay: its instant and what it did. */
interface Replay {
  instant: Instant;
  operation: string;
}

/** Where a write sits in the table's order: completion time (timeline layout 2), else requested time. */
const orderTime = (i: Instant): string => i.completionTime ?? i.requestedTime;

/**
 * The source's writes among `unpublished` (completed instants the target lacks) that changed records, oldest
 * first; compactions and clusterings are left out. A replacing write (insert overwrite, delete partition) →
 * `UNSUPPORTED` naming it, before anything is replayed.
 */
async function writesToReplay(source: Table, unpublished: readonly Instant[]): Promise<Replay[]> {
  const out: Replay[] = [];
  for (const instant of [...unpublished].sort((a, b) => compareInstantTimes(orderTime(a), orderTime(b)))) {
    const metadata = await source.commitMetadata(instant);
    const operation = (metadata.operationType ?? 'UPSERT').toUpperCase();
    if (metadata.compacted || SERVICE_OPERATIONS.has(operation)) continue;
    if (REPLACE_OPERATIONS.has(operation)) {
      throw unsupported(`replicate: cannot rebase the source's ${operation.toLowerCase()} ${instant.fileName} (a replacing write); publish it with a push into a target that has not diverged`, { instant: instant.fileName, value: operation });
    }
    out.push({ instant, operation });
  }
  return out;
}

/** The CDC window's exclusive start: the source's completed instant just before `first`, else the table's start. */
function windowStart(source: Table, first: Instant): string {
  let start: string = INIT_INSTANT_TIME;
  for (const i of source.timeline) {
    if (i.state !== 'COMPLETED' || compareInstantTimes(orderTime(i), orderTime(first)) >= 0) continue;
    if (compareInstantTimes(orderTime(i), start) > 0) start = orderTime(i);
  }
  return start;
}

/** The tags of the replayed commits among the target's completed writes `candidates` (a source instant's completed file name, `:delete` appended for its deletes). */
export async function replayedTags(target: Table, candidates: readonly Instant[]): Promise<Set<string>> {
  const tags = new Set<string>();
  for (const i of candidates) {
    if (i.state !== 'COMPLETED') continue;
    const tag = (await target.commitMetadata(i).catch(() => undefined))?.extraMetadata[REBASE_TAG];
    if (tag !== undefined) tags.add(tag);
  }
  return tags;
}

/**
 * Replay the source's `unpublished` writes on the target, oldest first, each as one commit of the same kind
 * (upsert or insert of its inserted and updated rows; a delete of the keys it deleted — a write that did
 * both gives two commits), tagged with the source instant. Writes already replayed (their tag is on one of
 * `targetOnly`, the target's instants the source lacks) are skipped, so a run cut short resumes. Returns the
 * commits written and how many source writes there were to replay (0: only services, nothing to rebase).
 */
export async function replayWrites(source: Table, target: Table, unpublished: readonly Instant[], targetOnly: readonly Instant[], write: WriteOptions = {}): Promise<{ writes: number; replayed: ReplayedWrite[] }> {
  const replays = await writesToReplay(source, unpublished);
  const first = replays[0];
  const last = replays.at(-1);
  if (first === undefined || last === undefined) return { writes: 0, replayed: [] };
  const done = await replayedTags(target, targetOnly);
  const changes = new Map<string, ChangeRecord[]>();
  for (const c of await source.changes({ from: windowStart(source, first.instant), to: orderTime(last.instant) })) {
    changes.set(c.commitTime, [...(changes.get(c.commitTime) ?? []), c]);
  }
  const out: ReplayedWrite[] = [];
  const options = (tag: string): WriteOptions => ({ retryOnConflict: 3, ...write, extraMetadata: { ...write.extraMetadata, [REBASE_TAG]: tag } });
  for (const { instant, operation } of replays) {
    const of = changes.get(instant.requestedTime) ?? [];
    const rows = of.filter((c) => c.op !== 'd' && c.after !== null).map((c) => c.after as Record<string, unknown>);
    const deleted = of.filter((c) => c.op === 'd' && c.before !== null).map((c) => c.before as Record<string, unknown>);
    const kind = operation === 'DELETE' ? 'DELETE' : INSERT_OPERATIONS.has(operation) ? 'INSERT' : 'UPSERT';
    const rowsTag = instant.fileName;
    if (rows.length > 0 && !done.has(rowsTag)) {
      const r = kind === 'INSERT' ? await target.insert(rows, options(rowsTag)) : await target.upsert(rows, options(rowsTag));
      out.push({ sourceInstant: instant.fileName, instant: r.instant, operation: kind === 'INSERT' ? 'INSERT' : 'UPSERT', records: rows.length });
    }
    const deletesTag = `${instant.fileName}:delete`;
    if (deleted.length > 0 && !done.has(deletesTag)) {
      const r = await target.delete(deleted, options(deletesTag));
      out.push({ sourceInstant: instant.fileName, instant: r.instant, operation: 'DELETE', records: deleted.length });
    }
  }
  return { writes: replays.length, replayed: out };
}
