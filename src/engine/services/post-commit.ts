// What happens after a write's completed instant exists: the write has succeeded, so a post-commit step
// (inline compaction, clean, archival, record-index update) that fails becomes a warning on the result,
// never a failure of the write (which a caller would retry, writing the rows twice).
import { isLakeletError, type LakeletErrorCode } from '../../errors.js';
import type { EngineContext } from '../context.js';
import { archive } from './archival.js';
import { hasMetadataTable } from './metadata-sync.js';
import { clean } from './clean.js';
import { scheduleCompaction } from './compaction.js';
import type { ResolvedWriteOptions } from '../write/write-options.js';

/** The post-commit steps of a write. */
export type PostCommitService = 'compaction' | 'clustering' | 'clean' | 'archival' | 'record-index' | 'metadata-compaction' | 'catalog' | 'commit-callback';

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

/**
 * Post-commit services the options ask for: inline compaction (merge-on-read), then inline clustering, then clean, then (on a table with
 * a metadata table) the MDT's own compaction when due, then archival, then the catalog step (`catalogSync`, `syncTo`).
 * Each runs even when an earlier one failed; failures come back as warnings, never thrown. They share the
 * context's snapshot: its config as the write loaded it, its timeline listed again after the commit and after
 * each service that changed it (each invalidates the snapshot; a failed one is taken to have changed it).
 */
export async function runTableServices(ctx: EngineContext, tableType: string, options: ResolvedWriteOptions): Promise<WriteWarning[]> {
  const steps: [PostCommitService, () => Promise<unknown>][] = [];
  if (tableType === 'MERGE_ON_READ' && options.compaction.inline) {
    steps.push(['compaction', async () => {
      await scheduleCompaction(ctx, options.compaction, false, options);
      // The runner's code loads only when a plan is pending (services/compaction-run.ts).
      if (!(await ctx.snapshot()).timeline.pending().some((i) => i.action === 'compaction')) return;
      await (await import('./compaction-run.js')).runPendingCompactions(ctx, options);
    }]);
  }
  // Inline clustering when due (its code loads only then: services/clustering.ts).
  if (options.clustering.everyCommits !== undefined) steps.push(['clustering', async () => (await import('./clustering.js')).inlineClustering(ctx, options)]);
  if (options.clean.automatic) steps.push(['clean', () => clean(ctx, { ...options.clean, clock: options.clock, heartbeatTimeoutMs: options.heartbeatTimeoutMs })]);
  // The metadata table's own compaction when due (and its clean), before archival: archival waits for it.
  const known = ctx.current; // the config as the write loaded it (no storage call)
  if (known !== undefined && hasMetadataTable(known)) {
    const timing = { clock: options.clock, heartbeatTimeoutMs: options.heartbeatTimeoutMs };
    steps.push(['metadata-compaction', async () => {
      const { archiveMetadataTable, cleanMetadataTable, compactMetadataTable } = await import('../metadata/lazy.js');
      if (await compactMetadataTable(ctx.storage, timing)) await cleanMetadataTable(ctx.storage, timing);
      // Then the MDT's own timeline archival, as Hudi's performTableServices (keep limits: the data table's + 1).
      await archiveMetadataTable(ctx.storage, { keepMinCommits: options.archive.keepMinCommits, keepMaxCommits: options.archive.keepMaxCommits, clock: options.clock, dataConfig: known.config });
    }]);
  }
  if (options.archive.automatic) steps.push(['archival', () => archive(ctx, options.archive)]);
  // Last, so the catalog entry and the Hive statements see the services' instants too (catalog/catalog-sync.ts).
  if (options.catalogSync || options.syncTo) steps.push(['catalog', async () => (await import('../../catalog/catalog-sync.js')).syncCatalog(await ctx.snapshot(), options.catalogSync, options.syncTo)]);
  const warnings: WriteWarning[] = [];
  for (const [service, step] of steps) {
    const warning = await runPostCommit(service, step);
    if (warning) {
      warnings.push(warning);
      ctx.invalidate();
    }
  }
  return warnings;
}
