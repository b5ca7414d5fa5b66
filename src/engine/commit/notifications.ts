// Commit notifications of one table (issue 14): the listeners of `table.onCommit`, told once about every
// completed instant the table's engine context comes to see — its own writes and services, other writers'
// commits its loads find, and commits other pages announce on the table's BroadcastChannel — with Hudi's
// callback message fields (HoodieWriteCommitCallbackMessage) plus the completion time.
import type { Storage } from '../../storage/storage.js';
import type { TableState } from '../table-state.js';
import { openCommitBroadcast, type CommitBroadcast, type CommitAnnouncement } from './commit-broadcast.js';
import type { CommitEvent } from './commit-event.js';

export type { CommitEvent } from './commit-event.js';

/** A `table.onCommit` listener. A listener that throws (or rejects) never fails the commit: see `onError`. */
export type CommitListener = (event: CommitEvent) => void | Promise<void>;

/** Options of `table.onCommit`. */
export interface OnCommitOptions {
  /** Called when the listener throws or rejects (default: `console.warn` with the instant). */
  onError?: (error: unknown, event: CommitEvent) => void;
}

/** The key that identifies a completed instant on a timeline. */
const instantKey = (i: { requestedTime: string; action: string }): string => `${i.requestedTime}.${i.action}`;

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
    // Building and delivering the events (commit metadata, JSON-safe stats) loads only for tables someone listens to.
    const remote = new Set(fresh.filter((i) => this.announced.has(instantKey(i))));
    await (await import('./commit-event.js')).deliverCommitEvents(state, fresh, remote, [...this.listeners]);
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
}
