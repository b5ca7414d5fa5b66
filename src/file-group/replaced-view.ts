// A file-system view less the file groups a replacecommit being committed replaces (an overwrite or a
// clustering): the metadata table's partition stats are computed over the slices that stay live.
import type { FileSystemView } from './file-system-view.js';
import { fileGroupKey } from './file-slice.js';

/** `view` without the file groups `replaced` names (file ids per partition); `view` itself when none. */
export function withoutReplaced(view: FileSystemView, replaced: ReadonlyMap<string, readonly string[]>): FileSystemView {
  if (replaced.size === 0) return view;
  const gone = new Set([...replaced].flatMap(([p, ids]) => ids.map((id) => fileGroupKey(p, id))));
  const filtered = Object.create(view) as FileSystemView;
  filtered.latestSlices = (options) => view.latestSlices(options).filter((s) => !gone.has(fileGroupKey(s.partitionPath, s.fileId)));
  return filtered;
}
