// What the crash tests check on a v9 table with a metadata table after each recovery: validateTable reports
// nothing, and no MDT file lacks a completed MDT instant (a crashed MDT deltacommit, compaction, clean or rollback
// left nothing behind once the next write recovered). Also the store kind that remembers every copy it hands
// out, so a test can check each store the crash matrix left.
import { expect } from 'vitest';
import { validateTable, type Storage } from '../../src/index.js';
import { memoryKind } from './crash-stores.js';

const MDT = '.hoodie/metadata/';
const MDT_TIMELINE = `${MDT}.hoodie/timeline/`;

/**
 * MDT files no completed MDT instant accounts for: timeline files of instants that never completed (a pending
 * compaction plan aside), and partition files (logs `.<fileId>_<instant>.log.*`, base files `…_<instant>.hfile`)
 * named after an instant that is not completed on the MDT timeline (the initialisation instants are) nor older than
 * its first instant (an archived one: its files stay valid, as Hudi's containsOrBeforeTimelineStarts).
 */
export async function mdtOrphans(storage: Storage): Promise<string[]> {
  const files = (await storage.list('.hoodie/metadata', { recursive: true })).map((f) => f.path);
  const completed = new Set<string>();
  let start: string | undefined; // the MDT's active timeline's first instant: older files are of archived instants
  for (const f of files) {
    const rel = f.startsWith(MDT_TIMELINE) ? f.slice(MDT_TIMELINE.length) : '';
    const m = /^(\d{17})_\d{17}\.[a-z]+$/.exec(rel);
    if (m) completed.add(m[1]!);
    const t = /^(\d{17})[._]/.exec(rel)?.[1];
    if (t !== undefined && (start === undefined || t < start)) start = t;
  }
  const out: string[] = [];
  for (const f of files) {
    const name = f.slice(f.lastIndexOf('/') + 1);
    if (f.startsWith(MDT_TIMELINE) && f.slice(MDT_TIMELINE.length).includes('/')) continue; // the MDT's LSM history
    if (f.startsWith(MDT_TIMELINE)) {
      if (!completed.has(name.slice(0, 17)) && !name.endsWith('.compaction.requested')) out.push(`${f} (pending MDT instant)`);
    } else if (f.startsWith(`${MDT}.hoodie/`) || name === '.hoodie_partition_metadata') continue;
    else {
      const t = /^\.[^_]+_(\d{17})\.log\./.exec(name)?.[1] ?? /_(\d{17})\.hfile$/.exec(name)?.[1];
      if (t === undefined || (!completed.has(t) && !(start !== undefined && t < start))) out.push(`${f} (MDT file of no completed MDT instant)`);
    }
  }
  return out;
}

/** A memory store kind whose every fresh store and copy is remembered (`stores`), for checks after the matrix. */
export function rememberingKind(): { kind: ReturnType<typeof memoryKind>; stores: Storage[] } {
  const kind = memoryKind();
  const stores: Storage[] = [];
  return {
    kind: { ...kind, fresh: async () => { const s = await kind.fresh(); stores.push(s); return s; }, copy: async (from: Storage) => { const s = await kind.copy(from); stores.push(s); return s; } },
    stores,
  };
}

/** Every remembered store (the base, the counting run's, each crashed and recovered copy) validates clean, without MDT orphans. */
export async function expectMetadataConsistent(stores: readonly Storage[], label: string): Promise<void> {
  for (const [i, s] of stores.entries()) {
    expect((await validateTable(s)).problems, `${label}: store ${i}: validateTable`).toEqual([]);
    expect(await mdtOrphans(s), `${label}: store ${i}: MDT orphans`).toEqual([]);
  }
}
