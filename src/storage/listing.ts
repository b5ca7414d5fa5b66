// `list` over a flat set of file paths (memory, IndexedDB, HTTP manifests, picked files): the files below a
// prefix, or its direct children with each subfolder reported once as a directory, sorted by path.
import type { FileInfo } from './storage.js';

/** Orders entries by path, comparing UTF-16 code units (the order every `list` returns). */
export function byPath(a: FileInfo, b: FileInfo): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * The entries `list(dir, { recursive })` returns from `files`, a flat set of `[path, entry]` pairs (any order):
 * with `recursive`, every file below `dir`; otherwise the files directly in `dir` and one `directory` entry per
 * subfolder (a file and a folder of the same name list as the file). `info` describes a listed file; it is
 * not called for the others. `dir` is a normalised path, `''` for the root.
 */
export function listFlat<T>(
  dir: string,
  files: Iterable<readonly [string, T]>,
  recursive: boolean,
  info: (path: string, entry: T) => FileInfo,
): FileInfo[] {
  const start = dir === '' ? '' : `${dir}/`;
  const out = new Map<string, FileInfo>();
  for (const [path, entry] of files) {
    if (!path.startsWith(start)) continue;
    const rest = path.slice(start.length);
    const slash = rest.indexOf('/');
    if (recursive || slash < 0) {
      out.set(path, info(path, entry));
    } else {
      const sub = start + rest.slice(0, slash);
      if (!out.has(sub)) out.set(sub, { path: sub, size: 0, kind: 'directory' });
    }
  }
  return [...out.values()].sort(byPath);
}
