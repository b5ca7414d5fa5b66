// The I/O of a replication: listing both stores, copying one file, publishing a completed instant with an
// atomic create, deleting, progress reporting and cancellation. Every step is safe to repeat.
import { conflict, isLakeletError, LakeletError } from '../errors.js';
import type { Storage } from '../storage/storage.js';

/** The phases a replication reports progress in, in order. */
export type ReplicatePhase = 'plan' | 'copy' | 'publish' | 'finish' | 'delete';

/** One progress report of `replicate`. */
export interface ReplicateProgress {
  phase: ReplicatePhase;
  /** Files copied, published or deleted so far (files found already equal on the target count too). */
  filesDone: number;
  /** Files this run will copy, publish or delete in all (known once the plan is made; deletions come last). */
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** The file just handled. */
  path?: string;
  /** The instant just published (timeline file name). */
  instant?: string;
}

/** The running state of one replication: both stores, counters, the caller's hooks. */
export class CopyContext {
  filesDone = 0;
  filesTotal = 0;
  bytesDone = 0;
  bytesTotal = 0;
  filesCopied = 0;
  bytesCopied = 0;
  filesDeleted = 0;
  phase: ReplicatePhase = 'plan';

  constructor(
    readonly source: Storage,
    readonly target: Storage,
    private readonly onProgress: ((p: ReplicateProgress) => void) | undefined,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Throw `ABORTED` when the caller's signal fired (checked before every store call). */
  checkAborted(): void {
    if (this.signal?.aborted) throw new LakeletError('ABORTED', `replicate: aborted (${this.source.label} → ${this.target.label})`, {}, { cause: this.signal.reason });
  }

  /** Count one handled file and report it. */
  report(path: string, bytes: number, instant?: string): void {
    this.filesDone++;
    this.bytesDone += bytes;
    this.onProgress?.({ phase: this.phase, filesDone: this.filesDone, filesTotal: this.filesTotal, bytesDone: this.bytesDone, bytesTotal: this.bytesTotal, path, ...(instant === undefined ? {} : { instant }) });
  }

  /** The source's bytes of `path`, or undefined when the source no longer has it. */
  readSource(path: string): Promise<Uint8Array | undefined> {
    this.checkAborted();
    return readIfPresent(this.source, path);
  }

  /** The target's bytes of `path`, or undefined when absent. */
  readTarget(path: string): Promise<Uint8Array | undefined> {
    this.checkAborted();
    return readIfPresent(this.target, path);
  }

  /**
   * Copy `path` from the source to the target (create or replace). Returns false, copying nothing, when the
   * source no longer has it (a clean or rollback ran there since the listing).
   */
  async copy(path: string): Promise<boolean> {
    const bytes = await this.readSource(path);
    if (bytes === undefined) return false;
    await this.write(path, bytes);
    return true;
  }

  /** Write `bytes` to the target's `path` and count it as copied. */
  async write(path: string, bytes: Uint8Array): Promise<void> {
    this.checkAborted();
    await this.target.write(path, bytes);
    this.filesCopied++;
    this.bytesCopied += bytes.length;
    this.report(path, bytes.length);
  }

  /** Copy `path` unless the target already holds the same bytes (for small files rewritten in place). */
  async copyIfDifferent(path: string): Promise<void> {
    const bytes = await this.readSource(path);
    if (bytes === undefined) return;
    const have = await this.readTarget(path);
    if (have !== undefined && sameBytes(have, bytes)) {
      this.report(path, bytes.length);
      return;
    }
    await this.write(path, bytes);
  }

  /**
   * Publish a completed instant file: create it only if absent, so a reader never sees it partial and two
   * replicators cannot both publish. Found already there with the same bytes (an earlier run, or another
   * replicator of this source) is success; other bytes → `CONFLICT`. The source losing the file since the
   * listing (archived or rolled back meanwhile) → `STORAGE`: run the replication again. True when this call
   * created it.
   */
  async publish(path: string, instant: string): Promise<boolean> {
    const bytes = await this.readSource(path);
    if (bytes === undefined) {
      throw new LakeletError('STORAGE', `replicate: the source's ${path} is gone since it was listed (the source changed while replicating); run replicate again`, { path, instant });
    }
    this.checkAborted();
    const created = await this.target.writeIfAbsent(path, bytes);
    if (created) {
      this.filesCopied++;
      this.bytesCopied += bytes.length;
    } else {
      const have = await this.readTarget(path);
      if (have === undefined || !sameBytes(have, bytes)) {
        throw conflict(`replicate: the target's ${path} differs from the source's (someone else published instant ${instant} there): the target diverged`, { path, instant });
      }
    }
    this.report(path, bytes.length, instant);
    return created;
  }

  /** Delete `path` on the target (missing is fine). */
  async remove(path: string): Promise<void> {
    this.checkAborted();
    await this.target.delete(path);
    this.filesDeleted++;
    this.report(path, 0);
  }
}

/** Every file of a store (temp files of unfinished writes excluded), path → size. */
export async function listStore(storage: Storage): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const f of await storage.list('', { recursive: true })) if (f.kind === 'file') out.set(f.path, f.size);
  return out;
}

/** The bytes of `path`, or undefined when the store has no such file. */
async function readIfPresent(storage: Storage, path: string): Promise<Uint8Array | undefined> {
  try {
    return await storage.read(path);
  } catch (err) {
    if (isLakeletError(err, 'NOT_FOUND')) return undefined;
    throw err;
  }
}

/** Byte equality. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
