// Clustering in model sequences (table-model.ts `clustering`): now and then `cluster()` rewrites every file
// group (a small-file limit above every file), without sort columns, by one column or by several with a linear,
// Z-order or Hilbert layout, and sometimes with a small target file size so that a partition's rows go into
// several new file groups. A clustering changes no record: the model stays as it is; the step checks what only
// the clustering instant shows (the caller's checks cover snapshot, time travel, incremental windows, reopen).
import { expect } from 'vitest';
import type { Table } from '../../src/index.js';
import { canonWithMeta, rowsWithMeta } from './table-model-checks.js';
import type { Random } from './random.js';
import type { Sequence } from './table-model-sequence.js';

/** The chance that a step of a clustering sequence is a clustering (drawn before the step's operation). */
export const CLUSTER_CHANCE = 0.12;

/** Sort column choices: none (rows keep their order), one, or several (columns every schema stage has). */
const SORTS: readonly string[][] = [[], ['ts'], ['name'], ['val', 'name'], ['name', 'ts', 'id']];
const LAYOUTS = ['linear', 'z-order', 'hilbert'] as const;

/**
 * Cluster the table of `seq` and check the clustering: every live record rewritten (the model's rows), the
 * table as of the clustering instant is the model, and an incremental window from the latest data write to the
 * clustering returns nothing (a clustering writes no new record). Returns the clustering instant (undefined:
 * nothing to cluster, only when the table holds no row).
 */
export async function clusterStep(table: Table, rnd: Random, seq: Sequence, label: string): Promise<string | undefined> {
  const sortColumns = rnd.pick(SORTS);
  const layout = sortColumns.length > 1 ? rnd.pick(LAYOUTS) : undefined;
  const small = rnd.chance(0.4);
  const r = await table.cluster({
    smallFileLimitBytes: 1 << 30,
    ...(sortColumns.length > 0 && { sortColumns }),
    ...(layout && { layout }),
    ...(small && { targetFileSizeBytes: 1024 }),
  });
  const what = `${label}: cluster(${sortColumns.join(',') || 'unsorted'}${layout ? ` ${layout}` : ''}${small ? ', small target' : ''})`;
  if (seq.model.size > 0) expect(r, `${what}: a table with rows has groups to cluster`).toBeDefined();
  if (!r) return undefined;
  expect(r.recordsWritten, `${what}: records rewritten`).toBe(seq.model.size);
  expect(r.fileGroupsWritten, `${what}: groups written`).toBeGreaterThan(0);
  const expected = canonWithMeta(seq.model, seq.commits, undefined, seq.stage);
  expect(await rowsWithMeta(table, { asOf: r.instant }, seq.stage), `${what}: as of the clustering`).toEqual(expected);
  const last = seq.history.at(-1);
  if (last) expect(await rowsWithMeta(table, { from: last.instant, to: r.instant }, seq.stage), `${what}: incremental (${last.instant}, clustering]`).toEqual([]);
  return r.instant;
}
