// The BroadcastChannel of one table: every page and worker of the origin that has the table open hears of the
// instants another one completed, so its table object sees them on its next read and its onCommit fires.
// Where BroadcastChannel does not exist, or the store lives in one JS realm only (memory), there is none.
import type { Storage } from '../../storage/storage.js';

/** The instants one announcement names (what a receiver needs to tell them apart; it reads the rest itself). */
export interface CommitAnnouncement {
  /** Format tag, so unrelated messages on the channel are ignored. */
  type: 'lakelet.commit';
  instants: { requestedTime: string; action: string; completionTime: string | undefined }[];
}

/** An open table channel. */
export interface CommitBroadcast {
  /** Tell the other pages about instants this one saw complete. Never throws. */
  announce(instants: CommitAnnouncement['instants']): void;
  /** Stop listening. */
  close(): void;
}

/** The channel name of a table: its store's label and its table name. */
export function commitChannelName(storage: Storage, tableName: string): string {
  return `lakelet.commits:${storage.label}:${tableName}`;
}

/**
 * The channel of the table `tableName` in `storage`, calling `onMessage` with the announcements of other pages
 * and workers; undefined where BroadcastChannel does not exist or the store is a memory store (no other page
 * can open it).
 */
export function openCommitBroadcast(storage: Storage, tableName: string, onMessage: (message: CommitAnnouncement) => void): CommitBroadcast | undefined {
  const Channel = (globalThis as { BroadcastChannel?: typeof BroadcastChannel }).BroadcastChannel;
  if (typeof Channel !== 'function' || storage.label.startsWith('memory')) return undefined;
  let channel: BroadcastChannel;
  try {
    channel = new Channel(commitChannelName(storage, tableName));
  } catch {
    return undefined;
  }
  // Node: an open channel must not keep the process alive.
  (channel as { unref?: () => void }).unref?.();
  channel.onmessage = (e: MessageEvent) => {
    const data = e.data as Partial<CommitAnnouncement> | null;
    if (data?.type === 'lakelet.commit' && Array.isArray(data.instants)) onMessage(data as CommitAnnouncement);
  };
  return {
    announce(instants) {
      try {
        channel.postMessage({ type: 'lakelet.commit', instants } satisfies CommitAnnouncement);
      } catch {
        // a closed channel: nobody to tell
      }
    },
    close() {
      channel.close();
    },
  };
}
