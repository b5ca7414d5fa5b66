// The files of the layout-2 archived timeline (Hudi 1.x LSM timeline, `.hoodie/timeline/history/`) by name and
// content: data files `<min>_<max>_<layer>.parquet`, snapshot manifests `manifest_<N>` (Jackson's pretty-printed
// `HoodieLSMTimelineManifest`: `{ "files" : [ { "fileName" : …, "fileLen" : … } ] }`) and the `_version_` file
// holding the latest snapshot version N as decimal text (apache/hudi `LSMTimeline`, `LSMTimelineWriter`).
import { corruptFile } from '../errors.js';

/** The version file's name (`LSMTimeline.VERSION_FILE_NAME`). */
export const LSM_VERSION_FILE = '_version_';

const MANIFEST_PREFIX = 'manifest_';
const MANIFEST_NAME = /^manifest_(\d+)$/;
// Hudi's pattern `^(\d+)_(\d+)_(\d)\.parquet` (one layer digit); more digits are read too.
const DATA_NAME = /^(\d+)_(\d+)_(\d+)\.parquet$/;

/** The manifest file of snapshot `version` (versions start at 1). */
export function lsmManifestFileName(version: number): string {
  return `${MANIFEST_PREFIX}${version}`;
}

/** The snapshot version of a manifest file name, or undefined for other names. */
export function lsmManifestVersion(name: string): number | undefined {
  const m = MANIFEST_NAME.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** A history data file's name, parsed. */
export interface LsmFileName {
  /** The smallest instant time in the file. */
  minInstant: string;
  /** The largest instant time in the file. */
  maxInstant: string;
  /** The LSM layer (0 for files archival writes, n + 1 for a compaction of layer-n files). */
  layer: number;
}

/** The name of a history data file: `<min>_<max>_<layer>.parquet`. */
export function lsmFileName(minInstant: string, maxInstant: string, layer: number): string {
  return `${minInstant}_${maxInstant}_${layer}.parquet`;
}

/** Parse a history data file name, or undefined when the name is not one. */
export function parseLsmFileName(name: string): LsmFileName | undefined {
  const m = DATA_NAME.exec(name);
  return m ? { minInstant: m[1] as string, maxInstant: m[2] as string, layer: Number(m[3]) } : undefined;
}

/** One valid data file of a snapshot (`HoodieLSMTimelineManifest.LSMFileEntry`). */
export interface LsmFileEntry {
  fileName: string;
  /** The file's length in bytes. */
  fileLen: number;
}

/** A snapshot manifest: the data files valid in one version of the history, in the order listed. */
export interface LsmManifest {
  files: LsmFileEntry[];
}

/**
 * A manifest's JSON as Hudi writes it: Jackson's default pretty printer (two-space object indent, arrays inline
 * with `[ … ]`, ` : ` between name and value, no trailing newline), fields in declaration order.
 */
export function encodeLsmManifest(manifest: LsmManifest): string {
  if (manifest.files.length === 0) return '{\n  "files" : [ ]\n}';
  const entries = manifest.files.map((f) => `{\n    "fileName" : ${JSON.stringify(f.fileName)},\n    "fileLen" : ${f.fileLen}\n  }`);
  return `{\n  "files" : [ ${entries.join(', ')} ]\n}`;
}

/**
 * Parse a manifest (any JSON spacing; unknown fields ignored, as Hudi's reader does). Empty text is an empty
 * manifest (Hudi's `fromJsonString`). Anything else that is not `{files: [{fileName, fileLen}]}` →
 * `CORRUPT_FILE` naming `path`.
 */
export function parseLsmManifest(text: string, path: string): LsmManifest {
  if (text.trim() === '') return { files: [] };
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (err) {
    throw corruptFile(`archived timeline: manifest is not JSON (${(err as Error).message})`, path, 0, err);
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) throw corruptFile('archived timeline: manifest is not a JSON object', path);
  const files = (root as { files?: unknown }).files ?? [];
  if (!Array.isArray(files)) throw corruptFile('archived timeline: manifest "files" is not a list', path);
  return {
    files: files.map((f: unknown, i) => {
      const e = (f ?? {}) as { fileName?: unknown; fileLen?: unknown };
      if (typeof e.fileName !== 'string' || !parseLsmFileName(e.fileName)) throw corruptFile(`archived timeline: manifest entry ${i} has no valid fileName (${JSON.stringify(e.fileName)})`, path);
      const len = typeof e.fileLen === 'number' ? e.fileLen : typeof e.fileLen === 'string' ? Number(e.fileLen) : NaN;
      if (!Number.isSafeInteger(len) || len < 0) throw corruptFile(`archived timeline: manifest entry ${e.fileName} has no valid fileLen (${JSON.stringify(e.fileLen)})`, path);
      return { fileName: e.fileName, fileLen: len };
    }),
  };
}

/** The version file's content: the version as decimal text, no newline (Hudi's `String.valueOf`). */
export function encodeLsmVersion(version: number): string {
  return String(version);
}

/**
 * The version a version file names, or undefined when its text is not a version (a reader then falls back to
 * the newest manifest, as Hudi's `latestSnapshotVersion` does).
 */
export function parseLsmVersion(text: string): number | undefined {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : undefined;
}
