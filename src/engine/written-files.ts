// The data files one write attempt created, recorded as it writes them: a write that does not commit deletes
// exactly these, including files written after a rollback by another writer removed its markers (a stalled
// writer that resumes would otherwise leave them as orphans no marker names).
import type { Storage } from '../storage/storage.js';

/** A store that records the data files (paths outside `.hoodie/`) written through it. */
export interface RecordingStorage {
  /** The wrapped store: use it for every call of the attempt. */
  storage: Storage;
  /** Data files written so far, in order (partition metadata aside: other writers share it). */
  readonly written: readonly string[];
}

const isDataFile = (path: string) => !path.startsWith('.hoodie/') && !path.endsWith('.hoodie_partition_metadata');

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
