// The data files one write attempt created, recorded as it writes them, and the discarding of an attempt
// that did not commit: it deletes exactly these, including files written after another writer's rollback
// removed its markers (a stalled writer that resumes would otherwise leave orphans no marker names).
import { isMetaPath, isPartitionMetadataPath } from '../../layout.js';
import type { Storage } from '../../storage/storage.js';
import { abortWrite, deleteMarkers, type InflightWrite } from '../commit/commit-protocol.js';
import { loadTableState } from '../context.js';

/** A store that records the data files (paths outside `.hoodie/`) written through it. */
export interface RecordingStorage {
  /** The wrapped store: use it for every call of the attempt. */
  storage: Storage;
  /** Data files written so far, in order (partition metadata aside: other writers share it). */
  readonly written: readonly string[];
}

const isDataFile = (path: string) => !isMetaPath(path) && !isPartitionMetadataPath(path);

/** Wrap `inner`; every other call passes through unchanged. */
export function recordingStorage(inner: Storage): RecordingStorage {
  const written: string[] = [];
  const seen = new Set<string>();
  const note = (path: string) => {
    if (isDataFile(path) && !seen.has(path)) {
      seen.add(path);
      written.push(path);
    }
  };
  const storage: Storage = {
    label: inner.label,
    readOnly: inner.readOnly,
    head: (p) => inner.head(p),
    read: (p, r) => inner.read(p, r),
    list: (p, o) => inner.list(p, o),
    delete: (p) => inner.delete(p),
    write: (p, b) => {
      note(p); // before the call: a write that fails half-way may still leave bytes behind
      return inner.write(p, b);
    },
    writeIfAbsent: async (p, b) => {
      const created = await inner.writeIfAbsent(p, b);
      if (created) note(p);
      return created;
    },
  };
  return { storage, written };
}

/**
 * Remove what an attempt that did not commit left: its heartbeat, the data files it wrote (also those written
 * after another writer's rollback removed its markers), its markers and, unless a rollback already removed
 * them, its timeline files.
 */
export async function discardAttempt(storage: Storage, inflight: InflightWrite, written: readonly string[]): Promise<void> {
  await inflight.heartbeat.stop().catch(() => undefined);
  const fresh = await loadTableState(storage);
  const mine = fresh.timeline.get(inflight.instantTime);
  if (mine?.state === 'COMPLETED') return; // it committed after all: nothing to undo
  for (const f of written) await storage.delete(f);
  if (mine) await abortWrite(storage, fresh, inflight);
  else await deleteMarkers(storage, inflight.instantTime);
}
