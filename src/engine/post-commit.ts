// What happens after a write's completed instant exists: the write has succeeded, so a post-commit step
// (inline compaction, clean, archival, record-index update) that fails becomes a warning on the result,
// never a failure of the write (which a caller would retry, writing the rows twice).
import { isLakeletError, type LakeletErrorCode } from '../errors.js';

/** The post-commit steps of a write. */
export type PostCommitService = 'compaction' | 'clean' | 'archival' | 'record-index';

/**
 * A post-commit step that failed after the write committed. The write's data is committed and visible; the
 * step is retried by a later write or can be run by hand (`compact`, `clean`, `archive`).
 */
export interface WriteWarning {
  /** Which step failed. */
  service: PostCommitService;
  /** The error's code; `UNEXPECTED` for an error that is not a `LakeletError` (a bug). */
  code: LakeletErrorCode | 'UNEXPECTED';
  /** The error's message (starts with the subsystem, names the path or value). */
  message: string;
}

/** Run one post-commit step; its failure is returned as a warning instead of thrown. */
export async function runPostCommit(service: PostCommitService, step: () => Promise<unknown>): Promise<WriteWarning | undefined> {
  try {
    await step();
    return undefined;
  } catch (err) {
    if (isLakeletError(err)) return { service, code: err.code, message: err.message };
    return { service, code: 'UNEXPECTED', message: `${service}: unexpected ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}` };
  }
}
