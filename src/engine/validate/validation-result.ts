// What the table validator reports (validate.ts runs the checks): the check names, one problem per difference
// found (the check, the offending file / instant / key / MDT partition, a message), and the collector the checks
// add to — a check whose MDT file cannot be read (corrupt, missing) reports that as its problem instead of throwing.
import { isLakeletError } from '../../errors.js';

/**
 * The validator's checks, after Hudi's HoodieMetadataTableValidator:
 * - `files-exist`: every live file a completed instant wrote (base and log) is in storage (tables without an MDT too);
 * - `files-partition`: the MDT `files` partition lists exactly the committed files storage holds (name and size)
 *   and exactly its partitions;
 * - `record-index`: `record_index` maps every key of the latest snapshot to its partition and file group, and
 *   holds no key the snapshot lacks;
 * - `column-stats`: `column_stats` of the latest slices' files equal those recomputed from the files;
 * - `partition-stats`: `partition_stats` equal the fold of the latest slices' file stats per partition;
 * - `metadata-structure`: MDT file groups numbered without gaps and each owning a file, keys in the file group
 *   their hash picks, MDT deltacommits of completed data instants, `hoodie.table.metadata.partitions` matching
 *   the MDT partition folders.
 */
export type ValidationCheck = 'files-exist' | 'files-partition' | 'record-index' | 'column-stats' | 'partition-stats' | 'metadata-structure';

/** One difference the validator found. */
export interface ValidationProblem {
  /** The check that found it. */
  check: ValidationCheck;
  /** The offending data file, MDT file or folder (relative to the table root), instant time, or record key. */
  path: string;
  /** What is wrong, in one sentence. */
  message: string;
}

/** What `validateTable` returns. */
export interface ValidationResult {
  /** True when no check found a problem. */
  ok: boolean;
  /** Every difference found, in check order. */
  problems: ValidationProblem[];
  /**
   * The checks that ran, in order: `files-exist` only for a table without a metadata table; checks that read the
   * data (`record-index`, `column-stats`, `partition-stats`) do not run while live files are missing.
   */
  checked: ValidationCheck[];
}

/** Options of `validateTable`. */
export interface ValidateOptions {
  /** Run only these checks (default: all that apply). */
  checks?: readonly ValidationCheck[];
}

/** The problems of one run, and the checks that ran. */
export class ValidationReport {
  readonly problems: ValidationProblem[] = [];
  readonly checked: ValidationCheck[] = [];

  /** Record a problem. */
  add(check: ValidationCheck, path: string, message: string): void {
    this.problems.push({ check, path, message });
  }

  /** Problems of one check so far. */
  count(check: ValidationCheck): number {
    return this.problems.filter((p) => p.check === check).length;
  }

  /**
   * Run one check, recording that it ran; an unreadable file it meets (`CORRUPT_FILE`, `NOT_FOUND`,
   * `INVALID_TABLE`) becomes one problem naming the file. Other errors propagate.
   */
  async run(check: ValidationCheck, body: () => Promise<void>): Promise<void> {
    this.checked.push(check);
    try {
      await body();
    } catch (err) {
      if (!isLakeletError(err, 'CORRUPT_FILE') && !isLakeletError(err, 'NOT_FOUND') && !isLakeletError(err, 'INVALID_TABLE')) throw err;
      const path = typeof err.context.path === 'string' ? err.context.path : '';
      this.add(check, path, `cannot be read: ${err.message}`);
    }
  }

  /** The result object. */
  result(): ValidationResult {
    return { ok: this.problems.length === 0, problems: [...this.problems], checked: [...this.checked] };
  }
}
