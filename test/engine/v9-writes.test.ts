// Writes into copies of the Spark-written v8/v9 fixtures without a metadata table (issue 10, first cut): upserts,
// deletes, inserts, compaction (MOR), clean, savepoint/restore, insert overwrite, partition deletes and rollback.
// After each step lakelet's reader returns what a simple model (key → the fields we change) predicts, starting
// from the rows the fixture holds; at the end every new timeline file has the fixture's own structure and every
// new log file is named after its deltacommit. A pending clustering (Spark's, not ours) blocks updates to its
// file groups as Hudi's default update strategy does, and is left alone.
import { describe, expect, test } from 'vitest';
import { formatInstantTime } from '../../src/timeline/instant-time.js';
import { readAvroContainer } from '../../src/format/avro/container.js';
import { serializeRequestedReplaceMetadataAvro } from '../../src/timeline/commit-metadata-avro.js';
import { openTable, type Storage, type Table } from '../../src/index.js';
import { fixtureCopy, fixtureStorage } from '../helpers/fixtures.js';
import { dataFileNames, expectFixtureStructure, expectLayout2Logs, timelineNames, V8_COW, V9_COW, V9_MOR } from '../helpers/v9-timeline.js';

type Row = Record<string, unknown>;
const OPTIONS = { clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false }, bloomFilter: { numEntries: 100 } } as const;

interface Case {
  zip: string;
  key: string;
  ordering: string;
  /** The string column the test changes. */
  change: string;
  /** Partition column (hive style), if partitioned. */
  partition?: string;
  mor: boolean;
}
const CASES: Case[] = [
  { zip: V9_COW, key: 'txn_id', ordering: 'txn_ts', change: 'merchant_name', partition: 'region', mor: false },
  { zip: V9_MOR, key: 'txn_id', ordering: 'txn_ts', change: 'merchant_name', partition: 'region', mor: true },
  { zip: V8_COW, key: 'id', ordering: 'longField', change: 'name', mor: false },
];

const bump = (v: unknown): unknown => (typeof v === 'bigint' ? v + 1n : typeof v === 'number' ? v + 1 : v);

/** Every row of the table without meta columns, by record key. */
async function fullRows(table: Table, readOptimized = false): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  for await (const r of table.rows({ readOptimized })) {
    const row: Row = {};
    for (const [k, v] of Object.entries(r)) if (!k.startsWith('_hoodie_')) row[k] = v;
    out.set(String(r._hoodie_record_key), row);
  }
  return out;
}

/** The model's view of a row: key, partition, ordering value and the changed column. */
const view = (c: Case, rows: Map<string, Row>): string[] =>
  [...rows].map(([k, r]) => `${k}|${c.partition ? String(r[c.partition]) : ''}|${String(r[c.ordering])}|${String(r[c.change])}`).sort();

describe.each(CASES)('$zip', (c) => {
  test('upsert, delete, insert, compaction, clean, savepoint/restore, overwrite, partition delete and rollback read back as the model; new files have the fixture\'s structure', { timeout: 120_000 }, async () => {
    const storage = await fixtureCopy(c.zip);
    const timelineBefore = new Set(await timelineNames(storage));
    const filesBefore = new Set(await dataFileNames(storage));
    let table = await openTable(storage);
    const model = await fullRows(table);
    expect(model.size).toBeGreaterThan(2);
    const check = async (what: string, readOptimized = false) => {
      table = await openTable(storage);
      expect(view(c, await fullRows(table, readOptimized)), what).toEqual(view(c, model));
    };
    const keys = [...model.keys()];
    const [k1, k2, k3] = keys as [string, string, string];
    const changed = (k: string, value: string): Row => ({ ...model.get(k), [c.change]: value, [c.ordering]: bump(model.get(k)?.[c.ordering]) });
    const copyAs = (k: string, newKey: string, value: string): Row => ({ ...model.get(k), [c.key]: typeof model.get(k)?.[c.key] === 'number' ? Number(newKey) : newKey, [c.change]: value });
    const keyOf = (r: Row): string => String(r[c.key]);

    // An update of an existing key and an insert of a new one, in one upsert.
    const u1 = changed(k1, 'lakelet-update');
    const n1 = copyAs(k1, c.key === 'id' ? '9001' : 'LAKELET-1', 'lakelet-new');
    await table.upsert([u1, n1], OPTIONS);
    model.set(k1, u1).set(keyOf(n1), n1);
    await check('after an upsert');
    await table.delete([k2], OPTIONS);
    model.delete(k2);
    await check('after a delete');
    const n2 = copyAs(k3, c.key === 'id' ? '9002' : 'LAKELET-2', 'lakelet-insert');
    await table.insert([n2], OPTIONS);
    model.set(keyOf(n2), n2);
    await check('after an insert');
    if (c.mor) {
      expect((await table.compact({ force: true })).length).toBe(1);
      await check('after the compaction (read-optimized)', true);
      await check('after the compaction');
    }
    expect(await table.clean({ retainCommits: 1 })).toBeDefined();
    await check('after a clean');
    const sp = await table.savepoint();
    await table.upsert([changed(k3, 'after-savepoint')], OPTIONS);
    await table.restore(sp.instant);
    await check('after a restore to the savepoint');
    if (c.partition) {
      // Overwrite one partition with one row; then drop another partition whole.
      const victim = String(model.get(k3)?.[c.partition]);
      const ow = { ...copyAs(k3, 'LAKELET-OW', 'overwritten') };
      await table.insertOverwrite([ow], { ...OPTIONS, partitions: [`${c.partition}=${victim}`] });
      for (const [k, r] of model) if (String(r[c.partition]) === victim) model.delete(k);
      model.set(keyOf(ow), ow);
      await check('after an insert overwrite of a partition');
      const other = [...model.values()].map((r) => String(r[c.partition!])).find((p) => p !== victim);
      if (other !== undefined) {
        await table.deletePartitions([`${c.partition}=${other}`], OPTIONS);
        for (const [k, r] of model) if (String(r[c.partition]) === other) model.delete(k);
        await check('after a partition delete');
      }
    } else {
      const ow = copyAs(k3, '9003', 'overwritten');
      await table.insertOverwriteTable([ow], OPTIONS);
      model.clear();
      model.set(keyOf(ow), ow);
      await check('after an insert overwrite of the table');
    }
    const any = [...model.keys()][0] as string;
    await table.upsert([changed(any, 'to-be-rolled-back')], OPTIONS);
    await table.rollback();
    await check('after rolling back the latest upsert');

    const fresh = await expectFixtureStructure(storage, timelineBefore);
    expect(fresh.length).toBeGreaterThan(10);
    if (c.mor) expect((await expectLayout2Logs(storage, filesBefore)).length, 'logs written by the upsert and the delete').toBeGreaterThanOrEqual(1);
  });
});

describe('a pending clustering (written by Spark) beside lakelet\'s writes', () => {
  test('updates and deletes of its file groups are refused, inserts avoid them, other groups take writes, and the plan is left alone', async () => {
    const storage: Storage = await fixtureCopy(V9_COW);
    let table = await openTable(storage);
    const rows: { key: string; region: string; fileId: string }[] = [];
    for await (const r of table.rows()) rows.push({ key: String(r._hoodie_record_key), region: String(r.region), fileId: String(r._hoodie_file_name).split('_')[0] as string });
    const target = rows[0]!;
    const elsewhere = rows.find((r) => r.region !== target.region)!;
    // A clustering plan over the target's file group, scheduled now, in the shape of the fixture's own plan.
    const template = readAvroContainer(await (await fixtureStorage(V9_COW)).read('.hoodie/timeline/20260307135709297.clustering.requested')).records[0] as { clusteringPlan: { inputGroups: { slices: Row[] }[] } } & Row;
    const group = template.clusteringPlan.inputGroups[0]!;
    group.slices = [{ ...group.slices[0], fileId: target.fileId, partitionPath: `region=${target.region}`, dataFilePath: `region=${target.region}/${target.fileId}` }];
    template.clusteringPlan.inputGroups = [group];
    const clustering = formatInstantTime(new Date(Date.now() - 1000));
    const planPath = `.hoodie/timeline/${clustering}.clustering.requested`;
    const plan = serializeRequestedReplaceMetadataAvro(template as never);
    await storage.write(planPath, plan);
    table = await openTable(storage);
    const before = (await storage.list('', { recursive: true })).map((f) => f.path).sort();

    const full = async (key: string): Promise<Row> => {
      for await (const r of table.rows()) if (r._hoodie_record_key === key) return Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('_hoodie_')));
      throw new Error(key);
    };
    const targetRow = await full(target.key);
    for (const attempt of [() => table.upsert([{ ...targetRow, merchant_name: 'x', txn_ts: bump(targetRow.txn_ts) }], OPTIONS), () => table.delete([target.key], OPTIONS)]) {
      await expect(attempt()).rejects.toMatchObject({ code: 'UNSUPPORTED', context: { instant: clustering, value: `region=${target.region}/${target.fileId}` } });
      expect((await storage.list('', { recursive: true })).map((f) => f.path).sort(), 'a refused write leaves nothing').toEqual(before);
    }
    // An insert into the same partition goes to a new file group, never the one being clustered.
    await table.insert([{ ...targetRow, txn_id: 'LAKELET-NEW', merchant_name: 'new' }], { ...OPTIONS, smallFileLimit: 100 * 1024 * 1024 });
    // An update of a group outside the plan is fine.
    const other = await full(elsewhere.key);
    await table.upsert([{ ...other, merchant_name: 'other', txn_ts: bump(other.txn_ts) }], OPTIONS);
    table = await openTable(storage);
    const after = new Map<string, Row>();
    for await (const r of table.rows()) after.set(String(r._hoodie_record_key), r);
    expect(String(after.get('LAKELET-NEW')?._hoodie_file_name).startsWith(target.fileId)).toBe(false);
    expect(after.get(elsewhere.key)?.merchant_name).toBe('other');
    expect(after.get(target.key)?.merchant_name).toBe(targetRow.merchant_name);
    // The clustering is Spark's: still pending, its plan untouched.
    expect([...(await storage.read(planPath))]).toEqual([...plan]);
    expect((await timelineNames(storage)).filter((n) => n.startsWith(clustering))).toEqual([`${clustering}.clustering.requested`]);
  });
});
