// Commit notifications of one table (issue 14): the listeners of `table.onCommit`, told once about every
// completed instant the table's engine context comes to see — its own writes and services, other writers'
// commits its loads find, and commits other pages announce on the table's BroadcastChannel — with Hudi's
// callback message fields (HoodieWriteCommitCallbackMessage) plus the completion time.
import type { Storage } from '../../storage/storage.js';
import type { TableState } from '../table-state.js';
import { WRITE_ACTIONS, type Instant } from '../../timeline/instant.js';
import { formatInstantTime } from '../../timeline/instant-time.js';
import { openCommitBroadcast, type CommitBroadcast, type CommitAnnouncement } from './commit-broadcast.js';

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

/** A `table.onCommit` listener. A listener that throws (or rejects) never fails the commit: see `onError`. */
export type CommitListener = (event: CommitEvent) => void | Promise<void>;

/** Options of `table.onCommit`. */
export interface OnCommitOptions {
  /** Called when the listener throws or rejects (default: `console.warn` with the instant). */
  onError?: (error: unknown, event: CommitEvent) => void;
}

/** The key that identifies a completed instant on a timeline. */
const instantKey = (i: { requestedTime: string; action: string }): string => `${i.requestedTime}.${i.action}`;

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
 * The commit notifier of one engine context. {@link observe} is given every state the context adopts: the first
 * one sets what is already known, each later one's completed instants not seen before are told to the listeners
 * and announced to other pages. Announcements from other pages mark the context stale (`onRemoteCommit`).
 */
export class CommitNotifier {
  private readonly listeners = new Map<CommitListener, OnCommitOptions>();
  private seen: Set<string> | undefined;
  /** Keys announced by other pages: told to the listeners here, never announced again. */
  private readonly announced = new Set<string>();
  private broadcast: CommitBroadcast | undefined;
  private attached = false;

  /**
   * @param storage the table's store (its label names the broadcast channel)
   * @param onRemoteCommit called when another page or worker announces a commit of this table
   */
  constructor(
    private readonly storage: Storage,
    private readonly onRemoteCommit: () => void,
  ) {}

  /** Add a listener; the returned function removes it. */
  add(listener: CommitListener, options: OnCommitOptions = {}): () => void {
    this.listeners.set(listener, options);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** True when a listener is registered. */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  /**
   * `state` was adopted: tell the listeners (and other pages) about its completed instants not seen before. The
   * first state only records what is there. Never throws.
   */
  async observe(state: TableState): Promise<void> {
    this.attach(state);
    const completed = state.timeline.files.filter((i) => i.state === 'COMPLETED');
    if (this.seen === undefined) {
      this.seen = new Set(completed.map(instantKey));
      return;
    }
    const fresh = completed.filter((i) => !this.seen!.has(instantKey(i)));
    if (fresh.length === 0) return;
    for (const i of fresh) this.seen.add(instantKey(i));
    const local = fresh.filter((i) => !this.announced.has(instantKey(i)));
    if (local.length > 0) this.broadcast?.announce(local.map((i) => ({ requestedTime: i.requestedTime, action: i.action, completionTime: i.completionTime })));
    if (!this.listening) return;
    for (const instant of fresh) {
      let event: CommitEvent;
      try {
        event = await commitEvent(state, instant, this.announced.has(instantKey(instant)) ? 'broadcast' : 'local');
      } catch (err) {
        warn(`lakelet: commit notification of ${instant.requestedTime} could not read its metadata`, err);
        continue;
      }
      for (const [listener, options] of [...this.listeners]) this.call(listener, options, event);
    }
  }

  /** Stop listening to other pages (the context is closed). */
  close(): void {
    this.broadcast?.close();
    this.broadcast = undefined;
    this.attached = false;
  }

  private attach(state: TableState): void {
    if (this.attached) return;
    this.attached = true;
    this.broadcast = openCommitBroadcast(this.storage, state.config.name, (message) => this.received(message));
  }

  private received(message: CommitAnnouncement): void {
    const unseen = message.instants.filter((i) => !this.seen?.has(instantKey(i)));
    if (unseen.length === 0) return;
    for (const i of unseen) this.announced.add(instantKey(i));
    this.onRemoteCommit();
  }

  /** Call one listener; a throw or a rejection goes to its `onError` (an async listener is not waited for). */
  private call(listener: CommitListener, options: OnCommitOptions, event: CommitEvent): void {
    const failed = (err: unknown) => {
      try {
        (options.onError ?? ((e: unknown, ev: CommitEvent) => warn(`lakelet: an onCommit listener failed on ${ev.commitActionType} ${ev.commitTime}`, e)))(err, event);
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
}

function warn(message: string, err: unknown): void {
  console.warn(message, err);
}
