// What the Map model of table-model.ts reads from a table's metadata table (v8/v9 tables created with
// `metadataTable: true`): the MDT compactions on its timeline, which decide whether a rollback or restore can
// still undo a commit (an MDT compaction folds the MDT deltacommits before it into its base files; Java's
// validateRollback refuses such a rollback, and lakelet does the same). Read from the MDT timeline's file names
// (completed layout-2 instants `<requested>_<completion>.<action>`, hudi-v9-write.md), not from lakelet's code.
import type { Storage } from '../../src/index.js';

const MDT_TIMELINE = '.hoodie/metadata/.hoodie/timeline';
const COMPLETED_COMMIT = /^(\d{17})_\d{17}\.commit$/;

/** Requested times of the completed compactions (`.commit`) on the metadata table's timeline. */
export async function metadataCompactions(storage: Storage): Promise<string[]> {
  const out: string[] = [];
  for (const f of await storage.list(MDT_TIMELINE)) {
    const m = COMPLETED_COMMIT.exec(f.path.slice(MDT_TIMELINE.length + 1));
    if (m) out.push(m[1]!);
  }
  return out.sort();
}

/** Whether an MDT compaction requested after data instant `instant` completed (it folded in `instant`'s MDT deltacommit). */
export async function metadataCompactedAfter(storage: Storage, instant: string): Promise<boolean> {
  return (await metadataCompactions(storage)).some((t) => t > instant);
}
