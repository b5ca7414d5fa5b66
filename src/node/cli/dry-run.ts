// `lakelet compact --dry-run` and `lakelet clean --dry-run`: the plans `table.compactionPlan()` and
// `table.cleanPlan()` return (nothing written), as the lines the commands print.
import type { PlannedClean, PlannedCompaction } from '../index.js';
import { plural } from './output.js';

/** What `lakelet compact --dry-run` prints: a summary line, then one line per file slice. */
export function compactionPlanText(plan: PlannedCompaction): string {
  const logs = plan.slices.reduce((n, s) => n + s.logFiles.length, 0);
  const head = plan.slices.length === 0
    ? 'dry run: nothing to compact'
    : `dry run: the next compaction would compact ${plural(plan.slices.length, 'file slice')} (${plural(logs, 'log file')})`;
  const waits = plan.pendingWrites.length > 0 ? `; pending writes (their logs left out; a live one makes compact refuse): ${plan.pendingWrites.join(', ')}` : '';
  const lines = plan.slices.map((s) => `  ${s.partitionPath === '' ? '(not partitioned)' : s.partitionPath} ${s.fileId} ${s.baseFile ?? 'log-only'} + ${plural(s.logFiles.length, 'log file')}${s.pending ? ` (pending compaction ${s.instant ?? ''})` : ''}`);
  return [head + waits, ...lines].join('\n');
}

/** What `lakelet clean --dry-run` prints: a summary line (`what`: the policy and retention), then one line per file. */
export function cleanPlanText(plan: PlannedClean, what: string): string {
  const pending = plan.pendingInstants.length > 0 ? `, finishing interrupted clean ${plan.pendingInstants.join(', ')}` : '';
  const head = plan.fileCount === 0
    ? `dry run: nothing to clean (${what})`
    : `dry run: the next clean (${what}${pending}) would delete ${plural(plan.fileCount, 'file')}${plan.earliestInstantToRetain ? `; oldest readable instant afterwards ${plan.earliestInstantToRetain}` : ''}`;
  const partitions = plan.partitionsToDelete.map((p) => `  partition ${p} (removed)`);
  return [head, ...Object.values(plan.filesToDelete).flat().map((f) => `  ${f}`), ...partitions].join('\n');
}
