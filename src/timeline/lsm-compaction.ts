// Planning the layout-2 history's maintenance (apache/hudi `LSMTimelineWriter.compactAndClean`), pure: layer
// compaction — once a layer holds `batchSize` (Hudi's `hoodie.timeline.compaction.batch.size`, 10) files, its
// oldest consecutive files (at least 2, at most the batch, within 1 GB) become one file of the next layer, and
// the next layer is checked in turn — and the clean that follows: only the latest 3 + (compactions just run)
// manifest versions are kept, with the data files they list; every other manifest and data file goes.
import { lsmFileName, lsmManifestVersion, parseLsmFileName, type LsmManifest } from './lsm-files.js';

/** Hudi's default `hoodie.timeline.compaction.batch.size`. */
export const LSM_COMPACTION_BATCH_SIZE = 10;
/** The most bytes of source files one compaction takes (Hudi's 1 GB default). */
export const LSM_COMPACTION_MAX_BYTES = 1024 * 1024 * 1024;
/** Manifest versions a clean keeps besides one per compaction just run (Hudi 1.0/1.1's constant 3). */
export const LSM_RETAINED_VERSIONS = 3;

/** One compaction of history files into a file of the next layer. */
export interface LsmCompaction {
  /** The layer compacted. */
  layer: number;
  /** Its files to merge, oldest first (their rows are copied in this order). */
  sources: string[];
  /** The new file: min and max of the sources' ranges, layer + 1. */
  target: string;
}

/** Options of {@link planLsmCompaction}. */
export interface LsmCompactionOptions {
  batchSize?: number;
  maxBytes?: number;
}

/**
 * The compaction of `layer` the manifest calls for, or undefined: none while the layer has fewer than
 * `batchSize` files, or when no two consecutive oldest files fit within `maxBytes` (a file that alone exceeds
 * it restarts the group after it).
 */
export function planLsmCompaction(manifest: LsmManifest, layer: number, options: LsmCompactionOptions = {}): LsmCompaction | undefined {
  const batchSize = options.batchSize ?? LSM_COMPACTION_BATCH_SIZE;
  const maxBytes = options.maxBytes ?? LSM_COMPACTION_MAX_BYTES;
  const files = manifest.files.filter((f) => parseLsmFileName(f.fileName)?.layer === layer).sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0));
  if (files.length < batchSize) return undefined;
  let sources: string[] = [];
  let bytes = 0;
  for (const f of files) {
    bytes += f.fileLen;
    sources.push(f.fileName);
    if (sources.length >= batchSize) break;
    if (bytes > maxBytes) {
      if (sources.length < 2) {
        sources = [];
        bytes = 0;
      } else break;
    }
  }
  if (sources.length < 2) return undefined;
  const names = sources.map((s) => parseLsmFileName(s)!);
  const min = names.map((n) => n.minInstant).reduce((a, b) => (b < a ? b : a));
  const max = names.map((n) => n.maxInstant).reduce((a, b) => (b > a ? b : a));
  return { layer, sources, target: lsmFileName(min, max, layer + 1) };
}

/** The manifest after a compaction: its sources removed, the target (of `targetLen` bytes) added last. */
export function applyLsmCompaction(manifest: LsmManifest, compaction: LsmCompaction, targetLen: number): LsmManifest {
  const gone = new Set(compaction.sources);
  return { files: [...manifest.files.filter((f) => !gone.has(f.fileName)), { fileName: compaction.target, fileLen: targetLen }] };
}

/** What a history clean deletes (manifests first, then data files). */
export interface LsmCleanPlan {
  manifests: string[];
  dataFiles: string[];
}

/**
 * The manifest versions a clean after an archival that ran `compactions` compactions keeps: the newest
 * {@link LSM_RETAINED_VERSIONS} + `compactions` of those in `names` (the history folder's file names), or
 * undefined when there are no more than that (nothing to clean).
 */
export function lsmVersionsToKeep(names: readonly string[], compactions: number): number[] | undefined {
  const versions = names.map(lsmManifestVersion).filter((v): v is number => v !== undefined).sort((a, b) => b - a);
  const keep = LSM_RETAINED_VERSIONS + compactions;
  return versions.length <= keep ? undefined : versions.slice(0, keep);
}

/**
 * The clean, given the kept versions' manifests ({@link lsmVersionsToKeep}): every other manifest in `names`,
 * and every data file in `names` no kept manifest lists (files of compacted layers, files a crash left unlisted).
 */
export function planLsmClean(names: readonly string[], kept: ReadonlyMap<number, LsmManifest>): LsmCleanPlan {
  const listed = new Set<string>();
  for (const m of kept.values()) for (const f of m.files) listed.add(f.fileName);
  return {
    manifests: names.filter((n) => {
      const v = lsmManifestVersion(n);
      return v !== undefined && !kept.has(v);
    }),
    dataFiles: names.filter((n) => n.endsWith('.parquet') && !listed.has(n)),
  };
}
