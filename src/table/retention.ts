// What a table still keeps for time travel (Table.retention): the oldest instant a query can read, set by the
// latest clean, and the savepoints, whose snapshots stay readable and whose files the cleaner keeps.
import type { TableState } from '../engine/table-state.js';
import { isLakeletError } from '../errors.js';
import { parseSavepointMetadata } from '../timeline/savepoint-metadata.js';
import type { TableRetention } from '../types.js';

/** The retention of the table as `state` saw it (savepoint files are read; an unreadable one keeps only its instant). */
export async function tableRetention(state: TableState): Promise<TableRetention> {
  const savepoints: TableRetention['savepoints'] = [];
  for (const i of state.timeline.instants) {
    if (i.action !== 'savepoint' || i.state !== 'COMPLETED') continue;
    const path = state.instantPath(i);
    try {
      const md = parseSavepointMetadata(await state.storage.read(path), path);
      const at = new Date(md.savepointedAt);
      savepoints.push({ instant: i.requestedTime, savepointedBy: md.savepointedBy, ...(Number.isNaN(at.getTime()) ? {} : { savepointedAt: at }), comments: md.comments });
    } catch (err) {
      if (!isLakeletError(err)) throw err;
      savepoints.push({ instant: i.requestedTime });
    }
  }
  const oldest = await state.oldestReadableInstant();
  return oldest ? { oldestReadable: oldest, savepoints } : { savepoints };
}
