// The MDT services driven by writes, on copies of the v9 MDT fixtures: a dozen upserts through the Table make
// the MDT compaction due after 10 MDT deltacommits (post-commit), then a data compaction (MOR) and a data clean
// each add their MDT deltacommit; a restore to a savepoint older than the MDT compaction is refused with
// nothing written (then the savepoint is deleted and the clean runs); a restore to a savepoint whose later
// writes are still in MDT logs rolls them back on both timelines. After every step the rows equal the model and validateTable is clean.
import { describe, expect, test } from 'vitest';
import { openTable, validateTable, type Storage, type Table } from '../../src/index.js';
import { EngineContext } from '../../src/engine/context.js';
import { clean } from '../../src/engine/services/clean.js';
import { scheduleCompaction } from '../../src/engine/services/compaction.js';
import { runPendingCompactions } from '../../src/engine/services/compaction-run.js';
import { restore } from '../../src/engine/services/restore.js';
import { deleteSavepoint, savepoint } from '../../src/engine/services/savepoint.js';
import { openMetadataTable } from '../../src/engine/metadata/metadata-table.js';
import { compactMetadataTable } from '../../src/engine/metadata/metadata-compaction.js';
import { fixtureCopy } from '../helpers/fixtures.js';

type Row = Record<string, unknown>;
const OPTIONS = { clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false }, bloomFilter: { numEntries: 100 }, heartbeatTimeoutMs: 0 } as const;
const MDT_TIMELINE = '.hoodie/metadata/.hoodie/timeline';
const CASES = [
  { zip: 'sample_table/mor/avro/v9_nonpartitioned_rollback.zip', mor: true },
  { zip: 'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip', mor: false },
];

async function rows(table: Table): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows()) out.push(`${String(r.txn_id)}|${String(r.merchant_name)}`);
  return out.sort();
}
const mdtNames = async (s: Storage) => (await s.list(MDT_TIMELINE)).filter((f) => f.kind === 'file').map((f) => f.path.slice(MDT_TIMELINE.length + 1)).sort();

describe.each(CASES)('$zip', (c) => {
  test('12 upserts trigger the MDT compaction; compaction, clean and restore keep the MDT in step', { timeout: 300_000 }, async () => {
    const storage = await fixtureCopy(c.zip);
    // The fixtures' times are in the past in any zone: declaring them UTC keeps the foreign-zone guard (newest
    // time ahead of our clock) from tripping over instants this test mints within one millisecond.
    const props = new TextDecoder().decode(await storage.read('.hoodie/hoodie.properties'));
    await storage.write('.hoodie/hoodie.properties', new TextEncoder().encode(`${props.trimEnd()}\nhoodie.table.timeline.timezone=UTC\n`));
    let table = await openTable(storage);
    // The model: every row as read (fixtures may hold a key twice); updates go to keys held exactly once.
    const model = new Map<string, Row>();
    const initial: Row[] = [];
    for await (const r of table.rows()) {
      const row: Row = {};
      for (const [k, v] of Object.entries(r)) if (!k.startsWith('_hoodie_')) row[k] = v;
      initial.push(row);
    }
    const counts = new Map<string, number>();
    for (const r of initial) counts.set(String(r.txn_id), (counts.get(String(r.txn_id)) ?? 0) + 1);
    const fixed = initial.filter((r) => counts.get(String(r.txn_id)) !== 1).map((r) => `${String(r.txn_id)}|${String(r.merchant_name)}`);
    for (const r of initial) if (counts.get(String(r.txn_id)) === 1) model.set(String(r.txn_id), r);
    const expected = () => [...fixed, ...[...model].map(([k, r]) => `${k}|${String(r.merchant_name)}`)].sort();
    const check = async (what: string) => {
      table = await openTable(storage);
      expect(await rows(table), what).toEqual(expected());
      expect(await validateTable(storage), what).toMatchObject({ ok: true, problems: [] });
    };
    const keys = [...model.keys()];
    const ctx = new EngineContext(storage, OPTIONS);
    const sp = await savepoint(ctx, {});
    let compactions = 0;
    for (let i = 0; i < 12; i++) {
      const k = keys[i % keys.length] as string;
      const old = model.get(k) as Row;
      const next = { ...old, merchant_name: `w${i}`, txn_ts: typeof old.txn_ts === 'bigint' ? old.txn_ts + 1n : (old.txn_ts as number) + 1 };
      const result = await table.upsert([next], OPTIONS);
      expect(result.warnings).toEqual([]);
      model.set(k, next);
      const now = (await mdtNames(storage)).filter((n) => /^\d{17}_\d{17}\.commit$/.test(n)).length;
      if (now > compactions) {
        compactions = now;
        await check(`after the upsert ${i} that compacted the MDT`);
      }
    }
    expect(compactions).toBeGreaterThanOrEqual(1);
    await check('after 12 upserts');

    if (c.mor) {
      const before = new Set(await mdtNames(storage));
      const run = new EngineContext(storage, OPTIONS);
      const planned = await scheduleCompaction(run, { deltaCommits: 1, logBytes: undefined }, true, { heartbeatTimeoutMs: 0 });
      expect(planned).toBeDefined();
      await runPendingCompactions(run, { ...run.options });
      const added = (await mdtNames(storage)).filter((n) => !before.has(n));
      expect(added.some((n) => n.startsWith(`${planned}_`) && n.endsWith('.deltacommit'))).toBe(true);
      await check('after a data compaction');
    }
    const beforeRestore = [...(await storage.list('', { recursive: true }))].map((f) => f.path).sort();
    await expect(restore(new EngineContext(storage, OPTIONS), sp.instant)).rejects.toMatchObject({ code: 'UNSUPPORTED' });
    expect([...(await storage.list('', { recursive: true }))].map((f) => f.path).sort()).toEqual(beforeRestore);
    await deleteSavepoint(new EngineContext(storage, OPTIONS), sp.instant);
    const cleaned = await clean(new EngineContext(storage, OPTIONS), { retainCommits: 1, heartbeatTimeoutMs: 0 });
    // (MOR: the compacted slices' old files are kept by lakelet's planner here; the COW table has replaced bases to clean.)
    if (!c.mor) expect(cleaned?.filesDeleted).toBeGreaterThan(0);
    if (cleaned) expect((await mdtNames(storage)).some((n) => n.startsWith(`${cleaned.instant}_`) && n.endsWith('.deltacommit'))).toBe(true);
    await check('after a clean');

    // A savepoint after the MDT compaction can be restored: each write after it is rolled back on both timelines.
    await compactMetadataTable(storage, { maxDeltaCommits: 1 }); // so that the next two writes stay in logs
    const sp2 = await savepoint(new EngineContext(storage, OPTIONS), {});
    const atSavepoint = expected();
    for (let i = 0; i < 2; i++) {
      const k = keys[i] as string;
      const old = model.get(k) as Row;
      const next = { ...old, merchant_name: `late${i}`, txn_ts: typeof old.txn_ts === 'bigint' ? old.txn_ts + 1n : (old.txn_ts as number) + 1 };
      await table.upsert([next], OPTIONS);
      model.set(k, next);
    }
    await check('after two upserts past the second savepoint');
    await restore(new EngineContext(storage, OPTIONS), sp2.instant);
    table = await openTable(storage);
    expect(await rows(table)).toEqual(atSavepoint);
    expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
    const mdt = await openMetadataTable(storage);
    expect(mdt!.timeline.pending()).toEqual([]);
  });
});
