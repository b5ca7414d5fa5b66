// A completed instant as commit notifications carry it (Hudi's HoodieWriteCommitCallbackMessage fields plus
// the completion time), built from the table state: the write stats and extra metadata of its commit file.
// Also the delivery to the listeners. Loaded on demand: only tables with onCommit listeners or an HTTP callback need it.
import type { TableState } from '../table-state.js';
import type { CommitListener, OnCommitOptions } from './notifications.js';
import { WRITE_ACTIONS, type Instant } from '../../timeline/instant.js';
import { formatInstantTime } from '../../timeline/instant-time.js';

/** One completed instant, as `table.onCommit` listeners and the HTTP callback receive it. */
export interface CommitEvent {
  /** The instant time (Hudi's `commitTime`). */
  commitTime: string;
  /** `hoodie.table.name`. */
  tableName: string;
  /** The table's base path: its store's label (`fs:/data/t`, `opfs:t`, `s3://bucket/t`…). */
  basePath: string;
  /** The completed action: `commit`, `deltacommit`, `replacecommit`, `clean`, `rollback`, `restore`, `savepoint`. */
  commitActionType: string;
  /** The write stats of a write or compaction (as in the commit file's `partitionToWriteStats`); empty for other actions. */
  hoodieWriteStat: Record<string, unknown>[];
  /** The commit's extra metadata (`schema`, …); empty for actions without commit metadata. */
  extraMetadata: Record<string, string>;
  /**
   * When the instant completed (`yyyyMMddHHmmssSSS`): layout 2 names it in the completed file; on layout 1,
   * the completed file's modification time when the store knows it, else undefined.
   */
  completionTime: string | undefined;
  /** Where the table learned of it: `local` (this table's context loaded it), `broadcast` (another page or worker announced it). */
  source: 'local' | 'broadcast';
}

/** The commit event of the completed instant `instant` of `state`'s table. */
export async function commitEvent(state: TableState, instant: Instant, source: CommitEvent['source'] = 'local'): Promise<CommitEvent> {
  let hoodieWriteStat: Record<string, unknown>[] = [];
  let extraMetadata: Record<string, string> = {};
  if (WRITE_ACTIONS.has(instant.action)) {
    const md = await state.commitMetadata(instant);
    hoodieWriteStat = Object.values(md.partitionToWriteStats).flat().map((s) => jsonSafe(s.raw) as Record<string, unknown>);
    extraMetadata = { ...md.extraMetadata };
  }
  return {
    commitTime: instant.requestedTime,
    tableName: state.config.name,
    basePath: state.storage.label,
    commitActionType: instant.action,
    hoodieWriteStat,
    extraMetadata,
    completionTime: instant.completionTime ?? (await modificationTime(state, instant)),
    source,
  };
}

/** Layout 1: the completed file's modification time as an instant time, when the store knows it. */
async function modificationTime(state: TableState, instant: Instant): Promise<string | undefined> {
  try {
    const ms = (await state.storage.head(state.instantPath(instant))).lastModified;
    return ms === undefined ? undefined : formatInstantTime(new Date(ms));
  } catch {
    return undefined;
  }
}

/** `value` with bigints as numbers (or strings beyond 2^53) and bytes as arrays: JSON and structured-clone safe. */
export function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Uint8Array) return Array.from(value);
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]));
  return value;
}

/**
 * Build the event of each of `instants` (those in `remote` came from another page's announcement) and call
 * every listener with it, in order. A listener that throws or rejects goes to its `onError`; an async listener
 * is not waited for. Never throws.
 */
export async function deliverCommitEvents(state: TableState, instants: readonly Instant[], remote: ReadonlySet<Instant>, listeners: readonly [CommitListener, OnCommitOptions][]): Promise<void> {
  for (const instant of instants) {
    let event: CommitEvent;
    try {
      event = await commitEvent(state, instant, remote.has(instant) ? 'broadcast' : 'local');
    } catch (err) {
      console.warn(`lakelet: the commit notification of ${instant.requestedTime} could not read its metadata`, err);
      continue;
    }
    for (const [listener, options] of listeners) callListener(listener, options, event);
  }
}

/** Call one listener; a throw or a rejection goes to its `onError` (default `console.warn`). */
function callListener(listener: CommitListener, options: OnCommitOptions, event: CommitEvent): void {
  const failed = (err: unknown) => {
    try {
      if (options.onError) options.onError(err, event);
      else console.warn(`lakelet: an onCommit listener failed on ${event.commitActionType} ${event.commitTime}`, err);
    } catch {
      // an error handler that throws cannot fail the commit either
    }
  };
  try {
    const out = listener(event);
    if (out && typeof (out as Promise<void>).then === 'function') (out as Promise<void>).then(undefined, failed);
  } catch (err) {
    failed(err);
  }
}
