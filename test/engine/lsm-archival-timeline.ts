// Test helper for layout-2 archival: a writable copy of the v9 COW fixture whose active timeline grows by copying
// the instant files of its last plain commit under new (later) requested and completion times — commits that
// add no files, so every read of the table stays what the fixture's own commits make it — plus the reads the
// archival tests compare before and after.
import { openTable, type Storage, type Table } from '../../src/index.js';
import { TableState } from '../../src/engine/table-state.js';
import type { ArchivedTimeline } from '../../src/timeline/archived-timeline.js';
import { INIT_INSTANT_TIME } from '../../src/timeline/instant.js';
import { collect, fixtureCopy } from '../helpers/fixtures.js';

/** The fixture every layout-2 archival test starts from. */
export const V9_FIXTURE = 'sample_table/cow/v9_txns_simple_nometa.zip';
/** Its timeline folder. */
export const TIMELINE = '.hoodie/timeline';
/** Its history folder. */
export const HISTORY = '.hoodie/timeline/history';
/** The fixture's completed writes (requested_completion.action), oldest first (12: 10 commits, 2 replacecommits). */
export const FIXTURE_WRITES = [
  '20260307135657661_20260307135659468.commit', '20260307135700696_20260307135701669.commit', '20260307135702545_20260307135702889.commit',
  '20260307135703515_20260307135703845.commit', '20260307135704448_20260307135704716.commit', '20260307135705338_20260307135705630.commit',
  '20260307135706094_20260307135706312.commit', '20260307135707243_20260307135707527.replacecommit', '20260307135708004_20260307135708214.commit',
  '20260307135708654_20260307135708860.commit', '20260307135709297_20260307135709818.replacecommit', '20260307135709890_20260307135710097.commit',
];
/** The fixture's commits before its first replacecommit: all an archival may take while it was never cleaned. */
export const ARCHIVABLE = FIXTURE_WRITES.slice(0, 7);
const TEMPLATE = '20260307135709890';
const TEMPLATE_COMPLETED = '20260307135709890_20260307135710097.commit';

/** Requested time of added commit k (1-based): 2026-03-07 14:00:00.000 + k seconds. */
export function addedTime(k: number): string {
  return `2026030714${String(Math.floor(k / 60)).padStart(2, '0')}${String(k % 60).padStart(2, '0')}000`;
}

/** Its completion time: 500 ms later. */
export function addedCompletion(k: number): string {
  return `${addedTime(k).slice(0, 14)}500`;
}

/** Add commits `from`..`to` (requested, inflight and completed files copied from the fixture's last commit). */
export async function addCommits(storage: Storage, from: number, to: number): Promise<void> {
  const requested = await storage.read(`${TIMELINE}/${TEMPLATE}.commit.requested`);
  const inflight = await storage.read(`${TIMELINE}/${TEMPLATE}.inflight`);
  const completed = await storage.read(`${TIMELINE}/${TEMPLATE_COMPLETED}`);
  for (let k = from; k <= to; k++) {
    const t = addedTime(k);
    await storage.write(`${TIMELINE}/${t}.commit.requested`, requested);
    await storage.write(`${TIMELINE}/${t}.inflight`, inflight);
    await storage.write(`${TIMELINE}/${t}_${addedCompletion(k)}.commit`, completed);
  }
}

/** A copy of the fixture with `added` commits added. */
export async function grownFixture(added: number): Promise<Storage> {
  const storage = await fixtureCopy(V9_FIXTURE);
  await addCommits(storage, 1, added);
  return storage;
}

/** Names of the files in a folder (not below it). */
export async function namesIn(storage: Storage, dir: string): Promise<string[]> {
  return (await storage.list(dir)).filter((f) => f.kind === 'file').map((f) => f.path.slice(dir.length + 1)).sort();
}

/** The archived timeline as a fresh reader loads it. */
export async function archivedOf(storage: Storage): Promise<ArchivedTimeline> {
  return (await TableState.load(storage)).archivedTimeline();
}

async function keys(table: Table, options: { asOf?: string; from?: string; to?: string } = {}): Promise<string[]> {
  const rows = await collect(table.rows({ columns: ['txn_id', 'amount', 'region'], ...options }));
  return rows.map((r) => `${String(r.region)}|${String(r.txn_id)}|${String(r.amount)}`).sort();
}

/** Snapshot, time travel to each of `instants` (requested times), incremental from the start and from each. */
export async function readsOf(storage: Storage, instants: readonly string[]): Promise<Record<string, string[]>> {
  const table = await openTable(storage);
  const out: Record<string, string[]> = { snapshot: await keys(table), all: await keys(table, { from: INIT_INSTANT_TIME }) };
  for (const t of instants) {
    out[`asOf ${t}`] = await keys(table, { asOf: t });
    out[`from ${t}`] = await keys(table, { from: t });
  }
  return out;
}

/** Requested time of an instant file name. */
export const requestedOf = (name: string): string => name.slice(0, 17);
