// Rolling back a completed write brings back the file versions it replaced. If the cleaner has deleted one of
// them (the write is older than what the clean retained), the rollback would leave live file groups pointing at
// files storage no longer has: the table would stop reading. Hudi does not check this; lakelet refuses first.
import { LakeletError } from '../../errors.js';
import { parseBaseFileName } from '../../file-group/file-names.js';
import { baseName, parentPath, partitionFilePath } from '../../layout.js';
import type { Instant } from '../../timeline/instant.js';
import type { TableState } from '../table-state.js';

/**
 * The earlier base files (`partition/fileId@instant`) that rolling back the completed `writes` would make live
 * again and that storage no longer holds: for each write stat of a base file that replaced an earlier version
 * of its file group (`prevCommit` an earlier instant), that version's base file must still exist.
 */
export async function cleanedPredecessors(state: TableState, writes: readonly Instant[]): Promise<string[]> {
  const bases = new Set<string>();
  for (const f of await state.dataFiles()) {
    const parsed = parseBaseFileName(baseName(f.path));
    if (parsed) bases.add(`${parentPath(f.path)}\u0000${parsed.fileId}\u0000${parsed.instantTime}`);
  }
  const missing: string[] = [];
  for (const w of writes) {
    if (w.state !== 'COMPLETED') continue;
    const md = await state.commitMetadata(w);
    for (const [partition, stats] of Object.entries(md.partitionToWriteStats)) {
      for (const s of stats) {
        const prev = s.prevCommit;
        if (!s.path || !parseBaseFileName(baseName(s.path)) || !s.fileId || prev === undefined || prev === 'null' || prev === '' || prev === w.requestedTime) continue;
        if (!bases.has(`${partition}\u0000${s.fileId}\u0000${prev}`)) missing.push(partitionFilePath(partition, `${s.fileId}@${prev}`));
      }
    }
  }
  return missing;
}

/** Refuse (`INVALID_ARGUMENT`, nothing written) a rollback of `writes` whose replaced file versions a clean deleted. */
export async function checkRollbackRestorable(state: TableState, target: string, writes: readonly Instant[]): Promise<void> {
  const missing = await cleanedPredecessors(state, writes);
  if (missing.length === 0) return;
  throw new LakeletError(
    'INVALID_ARGUMENT',
    `rollback: undoing ${target} would bring back file versions the cleaner already deleted (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? `, … ${missing.length} in all` : ''}); restore a savepoint instead — nothing was written`,
    { instant: target, missing },
  );
}
