// A table as a `.zip` Spark can read once unzipped: the table folder (named after the table) with `.hoodie/`
// (timeline, properties, metadata table) and its data files — every file, or for a snapshot only the files
// of the latest file slices (older versions left out: time travel before the latest commit needs the full export).
import { zipSync, type Zippable } from 'fflate';
import type { FileSlice, Storage } from '../src/index.js';

/** What {@link tableZip} reads: the table's store and, for a snapshot, its latest file slices. */
export interface ZipSource {
  storage: Storage;
  fileSlices(): Promise<FileSlice[]>;
}

/** Options of {@link tableZip}. */
export interface TableZipOptions {
  /** The folder the zip holds the table in (the table's name). */
  folder: string;
  /** Only the latest snapshot's data files. */
  snapshot?: boolean;
  /** Called after each file read. */
  onProgress?: (done: number, total: number) => void;
}

/** True for files every export keeps: the timeline and metadata (`.hoodie/…`) and partition markers. */
const isTableMetadata = (path: string) => path.startsWith('.hoodie/') || /(^|\/)\.hoodie_partition_metadata[^/]*$/.test(path);
/** Lakelet's half-written temp files and lock files never belong in an export. */
const isScratch = (path: string) => path.includes('.lakelet-tmp-') || path.endsWith('.lock');

/** The paths an export holds, sorted. */
export async function exportPaths(source: ZipSource, snapshot: boolean): Promise<string[]> {
  const files = (await source.storage.list('', { recursive: true })).map((f) => f.path).filter((p) => !isScratch(p));
  if (!snapshot) return files;
  const latest = new Set<string>();
  for (const s of await source.fileSlices()) {
    if (s.baseFile) latest.add(s.baseFile.path);
    for (const l of s.logFiles) latest.add(l.path);
  }
  return files.filter((p) => isTableMetadata(p) || latest.has(p));
}

/** Zip the table: data files stored as they are (already compressed), the rest deflated. */
export async function tableZip(source: ZipSource, options: TableZipOptions): Promise<Uint8Array> {
  const paths = await exportPaths(source, options.snapshot ?? false);
  const entries: Zippable = {};
  let done = 0;
  for (const path of paths) {
    const bytes = await source.storage.read(path);
    entries[`${options.folder}/${path}`] = [bytes, { level: /\.(parquet|hfile)$|\.log\.\d+/.test(path) ? 0 : 6 }];
    options.onProgress?.(++done, paths.length);
  }
  return zipSync(entries);
}
