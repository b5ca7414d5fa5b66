// The metadata table's own clean (metadata/metadata-clean-plan.ts: KEEP_LATEST_COMMITS, 20 MDT commits
// retained), run after an MDT compaction: under the commit lock, at a fresh time later than every time of both
// timelines — the MDT's `<t>.clean.requested` (HoodieCleanerPlan, paths relative to the MDT root), the same bytes
// as `<t>.clean.inflight`, the files deleted (idempotent), then `<t>_<c>.clean` (HoodieCleanMetadata). An
// interrupted clean is re-run from its plan by the next call.
import { baseName, metadataTablePath } from '../../layout.js';
import { METADATA_CLEANER_COMMITS_RETAINED, planMetadataClean } from '../../metadata/metadata-clean-plan.js';
import type { MetadataPartitionFile } from '../../metadata/metadata-file-slices.js';
import type { Storage } from '../../storage/storage.js';
import { parseCleanerPlan, serializeCleanerPlan, serializeCleanMetadata, type CleanerPlan, type CleanPartitionMetadata } from '../../timeline/clean-metadata.js';
import type { Clock } from '../clock.js';
import { instantTransition } from '../commit/transitions.js';
import { loadTableConfig } from '../table-state.js';
import { metadataTimelineLocation, runMetadataService } from './metadata-service.js';
import type { MetadataTable } from './metadata-table.js';

/** Options of {@link cleanMetadataTable}. */
export interface MetadataCleanOptions {
  /** MDT commits whose snapshots stay readable (Java's 20). */
  retainCommits?: number;
  /** Time source of the instant and completion times and the commit lock (default the system clock). */
  clock?: Clock;
  /** Silence after which the commit lock's holder counts as gone (default 60 s). */
  heartbeatTimeoutMs?: number;
}

/** What an MDT clean did. */
export interface MetadataCleanResult {
  /** The MDT clean instant. */
  instant: string;
  /** MDT files deleted. */
  filesDeleted: number;
}

const POLICY = 'KEEP_LATEST_COMMITS';

/** Delete the plan's files (idempotent), then complete the MDT clean. */
async function executeMetadataClean(mdt: MetadataTable, instant: string, plan: CleanerPlan, clock: Clock): Promise<MetadataCleanResult> {
  const started = clock.now();
  const partitions: Record<string, CleanPartitionMetadata> = {};
  let deleted = 0;
  for (const [partition, files] of Object.entries(plan.filePathsToBeDeletedPerPartition)) {
    const names: string[] = [];
    for (const f of files) {
      await mdt.storage.delete(metadataTablePath(f.filePath));
      names.push(baseName(f.filePath));
      deleted++;
    }
    partitions[partition] = { partitionPath: partition, policy: POLICY, deletePathPatterns: names, successDeleteFiles: names, failedDeleteFiles: [], isPartitionDeleted: false };
  }
  const metadata = serializeCleanMetadata({
    startCleanTime: instant,
    timeTakenInMillis: Math.max(0, clock.now() - started),
    totalFilesDeleted: deleted,
    earliestCommitToRetain: plan.earliestInstantToRetain?.timestamp ?? '',
    lastCompletedCommitTimestamp: plan.lastCompletedCommitTimestamp,
    partitionMetadata: partitions,
  });
  await instantTransition(mdt.storage, metadataTimelineLocation(mdt), instant, 'clean').complete(metadata, { clock });
  return { instant, filesDeleted: deleted };
}

/** Re-run MDT cleans a crash interrupted. */
async function finishPendingMetadataCleans(mdt: MetadataTable, clock: Clock): Promise<MetadataCleanResult[]> {
  const out: MetadataCleanResult[] = [];
  for (const pending of mdt.timeline.pending()) {
    if (pending.action !== 'clean') continue;
    const transition = instantTransition(mdt.storage, metadataTimelineLocation(mdt), pending.requestedTime, 'clean');
    const path = transition.path('REQUESTED');
    const bytes = await mdt.storage.read(path);
    if (pending.state === 'REQUESTED') await transition.markInflight(bytes);
    out.push(await executeMetadataClean(mdt, pending.requestedTime, parseCleanerPlan(bytes, path), clock));
  }
  return out;
}

/** Every file of each listed MDT partition's folder, as MDT-relative paths. */
async function partitionFiles(mdt: MetadataTable): Promise<Map<string, MetadataPartitionFile[]>> {
  const prefix = metadataTablePath('');
  const out = new Map<string, MetadataPartitionFile[]>();
  for (const p of mdt.partitions) {
    const files = (await mdt.storage.list(metadataTablePath(p))).filter((f) => f.kind === 'file');
    out.set(p, files.map((f) => ({ path: f.path.slice(prefix.length), size: f.size })));
  }
  return out;
}

/**
 * Clean the data table's metadata table: finish interrupted MDT cleans, then plan one (KEEP_LATEST_COMMITS,
 * `retainCommits`) and, when it deletes anything, run it. Returns it (or the last interrupted one finished), or
 * undefined when there was nothing to clean or the table has no MDT (nothing written then).
 */
export async function cleanMetadataTable(storage: Storage, options: MetadataCleanOptions = {}): Promise<MetadataCleanResult | undefined> {
  const config = await loadTableConfig(storage);
  if (config.timelineLayoutVersion !== 2) return undefined;
  return runMetadataService(storage, config, options, {
    action: 'clean',
    finishPending: finishPendingMetadataCleans,
    plan: async (mdt) => {
      const plan = planMetadataClean(await partitionFiles(mdt), mdt.timeline, options.retainCommits ?? METADATA_CLEANER_COMMITS_RETAINED);
      if (plan.fileCount === 0 || !plan.earliestInstantToRetain) return undefined;
      const e = plan.earliestInstantToRetain;
      const bytes = serializeCleanerPlan({
        earliestInstantToRetain: { timestamp: e.requestedTime, action: e.action, state: 'COMPLETED' },
        lastCompletedCommitTimestamp: plan.lastCompletedCommit,
        policy: POLICY,
        filePathsToBeDeletedPerPartition: Object.fromEntries(Object.entries(plan.filesToDelete).map(([p, fs]) => [p, fs.map((f) => ({ filePath: f, isBootstrapBaseFile: false }))])),
        partitionsToBeDeleted: [],
      });
      return { requested: bytes, inflight: bytes };
    },
    execute: (mdt, instant, requested, path, clock) => executeMetadataClean(mdt, instant, parseCleanerPlan(requested, path), clock),
  });
}
