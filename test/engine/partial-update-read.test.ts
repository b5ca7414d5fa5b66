// Partial-update log blocks end to end (issue 11, point 1; docs/partial-updates.md): fixture copies with
// hand-built deltacommits whose log blocks are IS_PARTIAL (the meta fields plus the changed columns), written with
// lakelet's own log writer (test/helpers/partial-log.ts). Snapshot reads and the compaction merge (the worker
// API's compactFileSlice, and table.compact() end to end on v9 and v6) must give the rows derived by hand from
// Hudi 1.x's rules.
import { describe, expect, test } from 'vitest';
import { openTable, type Storage } from '../../src/index.js';
import { bufferFromBytes, readParquetFooter, readParquetRows } from '../../src/format/parquet/read.js';
import { orderingSpec } from '../../src/merge/ordering.js';
import { parseRecordSchema, withMetaFields } from '../../src/schema/table-schema.js';
import { PROPERTIES_PATH } from '../../src/layout.js';
import { createWorkerApi } from '../../src/worker/worker-impl.js';
import { collect, fixtureCopy } from '../helpers/fixtures.js';
import { failure } from '../helpers/expect-error.js';
import { appendPartialDeltaCommit, tableConfigOf } from '../helpers/partial-log.js';
import { mergeSpecToWire } from '../../src/worker/record-wire.js';

type Row = Record<string, unknown>;
const byKey = (rows: Row[]): Map<string, Row> => new Map(rows.map((r) => [String(r._hoodie_record_key), r]));
const sorted = (rows: Row[]): Row[] => [...rows].sort((a, b) => String(a._hoodie_record_key).localeCompare(String(b._hoodie_record_key)));
const snapshot = async (storage: Storage, options = {}): Promise<Row[]> => sorted(await collect((await openTable(storage)).rows(options)));

describe('v9 MOR (sample_table/mor/avro/v9_txns_simple_nometa): partial blocks over base, log and partial records', () => {
  const ZIP = 'sample_table/mor/avro/v9_txns_simple_nometa.zip';
  const FG = '4625f1ea-a436-4846-a24a-1328e1c036a6-0'; // region=us, base file of clustering 20260307135840454
  const PART = 'region=us';
  const [t1, t2, t3] = ['20260307140000000', '20260307140001000', '20260307140002000'];
  const meta = (t: string, i: number, key: string): Row => ({ _hoodie_commit_time: t, _hoodie_commit_seqno: `${t}_0_${i}`, _hoodie_record_key: key, _hoodie_partition_path: PART, _hoodie_file_name: FG });

  /** The fixture copy with three deltacommits on FG, and the rows before them. */
  async function build(): Promise<{ storage: Storage; before: Map<string, Row>; logs: string[] }> {
    const storage = await fixtureCopy(ZIP);
    const before = byKey(await snapshot(storage));
    const b14 = before.get('TXN-014') as Row;
    const logs = [
      // t1: a full update of TXN-014 and a (natural-order) delete of TXN-003.
      await appendPartialDeltaCommit(storage, {
        instant: t1, partitionPath: PART, fileId: FG, logBaseInstant: t1,
        blocks: [
          { kind: 'full', records: [{ ...b14, ...meta(t1, 0, 'TXN-014'), txn_ts: 1700600000114n, merchant_name: 'Lyft', amount: '130.00' }] },
          { kind: 'delete', keys: [{ recordKey: 'TXN-003', partitionPath: PART }] },
        ],
      }),
      // t2: partial (txn_ts, merchant_name) over the base, over t1's full record, with a lower ordering value,
      // after t1's delete, and for a key with no older version.
      await appendPartialDeltaCommit(storage, {
        instant: t2, partitionPath: PART, fileId: FG, logBaseInstant: t2,
        blocks: [{
          kind: 'partial', columns: ['txn_ts', 'merchant_name'], records: [
            { ...meta(t2, 0, 'TXN-013'), txn_ts: 1700600000113n, merchant_name: 'Best Buy Online' },
            { ...meta(t2, 1, 'TXN-014'), txn_ts: 1700600000214n, merchant_name: 'Lyft Premium' },
            { ...meta(t2, 2, 'TXN-001'), txn_ts: 1700000000000n, merchant_name: 'late' },
            { ...meta(t2, 3, 'TXN-003'), txn_ts: 1700000000103n, merchant_name: 'after delete' },
            { ...meta(t2, 4, 'TXN-900'), txn_ts: 7n, merchant_name: 'no older version' },
          ],
        }],
      }),
      // t3: partial (txn_ts, amount) over t2's partial record, and one older than what the log holds.
      await appendPartialDeltaCommit(storage, {
        instant: t3, partitionPath: PART, fileId: FG, logBaseInstant: t3,
        blocks: [{
          kind: 'partial', columns: ['txn_ts', 'amount'], records: [
            { ...meta(t3, 0, 'TXN-013'), txn_ts: 1700600000313n, amount: '760.00' },
            { ...meta(t3, 1, 'TXN-014'), txn_ts: 1700600000150n, amount: '999.00' },
          ],
        }],
      }),
    ];
    return { storage, before, logs };
  }

  /** The rows derived by hand from the rules of docs/partial-updates.md. */
  function expected(before: Map<string, Row>): Row[] {
    const rows = new Map(before);
    const b = (k: string) => before.get(k) as Row;
    // Partial over partial over base: t3 wins txn_ts/amount, t2 gave merchant_name, the base the rest.
    rows.set('TXN-013', { ...b('TXN-013'), ...meta(t3, 0, 'TXN-013'), txn_ts: 1700600000313n, merchant_name: 'Best Buy Online', amount: '760.00' });
    // Partial over a full log record: amount from t1's record; t3 (ts 150 < 214) loses to the full t1+t2 version.
    rows.set('TXN-014', { ...b('TXN-014'), ...meta(t2, 1, 'TXN-014'), txn_ts: 1700600000214n, merchant_name: 'Lyft Premium', amount: '130.00' });
    // A lower ordering value than the base: dropped whole (TXN-001 unchanged).
    // After the natural delete: the log's delete loses to the later partial record, which then beats the base.
    rows.set('TXN-003', { ...b('TXN-003'), ...meta(t2, 3, 'TXN-003'), txn_ts: 1700000000103n, merchant_name: 'after delete' });
    // No older version: only the columns the record carries; the rest are null.
    const lone: Row = {};
    for (const c of Object.keys(b('TXN-013'))) lone[c] = null;
    rows.set('TXN-900', { ...lone, ...meta(t2, 4, 'TXN-900'), txn_ts: 7n, merchant_name: 'no older version' });
    return sorted([...rows.values()]);
  }

  test('snapshot read merges the partial records column by column', async () => {
    const { storage, before } = await build();
    expect(before.size).toBe(12);
    expect(before.get('TXN-001')).toMatchObject({ txn_ts: 1700100000001n, merchant_name: 'Amazon' });
    const rows = await snapshot(storage);
    expect(rows).toEqual(expected(before));
    // The symptom, spelled out: the columns a partial block does not carry are not null.
    const r13 = byKey(rows).get('TXN-013') as Row;
    expect([r13.account_id, r13.currency, r13.txn_id]).toEqual(['ACC-K', 'USD', 'TXN-013']);
  });

  test('the compaction merge of the worker API (compactFileSlice) writes the same rows into the new base file', async () => {
    const { storage, before, logs } = await build();
    const config = await tableConfigOf(storage);
    const schema = withMetaFields(parseRecordSchema(config.createSchema as string, 'hoodie.properties'));
    const spec = orderingSpec(config.orderingFields, schema);
    const basePath = `${PART}/${FG}_2-66-141_20260307135840454.parquet`;
    const instant = '20260307140010000';
    const fileName = `${FG}_0-1-1_${instant}.parquet`;
    const completed = (await storage.list(config.timelinePath)).map((f) => f.path.split('/').pop() as string).filter((n) => /^\d+_\d+\.(deltacommit|commit|replacecommit)$/.test(n)).map((n) => n.slice(0, 17));
    const api = createWorkerApi({ kernels: 'js' });
    const result = await api.compactFileSlice({
      ...await mergeSpecToWire({ instantTime: instant, taskId: 0, partitionPath: PART, fileName, basePath, updates: new Map(), inserts: [],
        schema, mergeMode: config.recordMergeMode, ...spec, writer: {}, collectKeys: false }),
      base: (await storage.read(basePath)).slice().buffer,
      logs: await Promise.all(logs.map(async (path) => ({ path, bytes: (await storage.read(path)).slice().buffer }))),
      visibility: { completedWrites: completed, timelineStart: '20260307135827749', asOf: undefined },
      merge: { mode: config.recordMergeMode, ...spec },
    });
    const bytes = new Uint8Array(result.bytes);
    const file = bufferFromBytes(bytes);
    const written = sorted(await readParquetRows(file, await readParquetFooter(file, fileName), fileName));
    const want = expected(before).filter((r) => r._hoodie_partition_path === PART && ['TXN-013', 'TXN-014', 'TXN-001', 'TXN-003', 'TXN-900'].includes(String(r._hoodie_record_key)));
    expect(written).toEqual(want.map((r) => ({ ...r, _hoodie_file_name: fileName })));
  });

  test('table.compact() (the v9 writer) writes the same rows into the new base file, commit times kept', async () => {
    const { storage, before } = await build();
    const results = await (await openTable(storage)).compact();
    expect(results.length).toBeGreaterThanOrEqual(1);
    const ro = sorted(await collect((await openTable(storage)).rows({ readOptimized: true })));
    const strip = (rows: Row[]) => rows.map(({ _hoodie_file_name, ...r }) => r);
    expect(strip(ro)).toEqual(strip(expected(before)));
    expect(await snapshot(storage)).toEqual(ro);
  });

  test('a deltacommit that did not complete: its partial block does not count', async () => {
    const storage = await fixtureCopy(ZIP);
    const before = await snapshot(storage);
    await appendPartialDeltaCommit(storage, {
      instant: t1, partitionPath: PART, fileId: FG, logBaseInstant: t1, inflightOnly: true,
      blocks: [{ kind: 'partial', columns: ['txn_ts', 'merchant_name'], records: [{ ...meta(t1, 0, 'TXN-013'), txn_ts: 1700600000113n, merchant_name: 'pending' }] }],
    });
    expect(await snapshot(storage)).toEqual(before);
  });

  test('UNSUPPORTED, naming it: an IS_PARTIAL value other than true/false, an unknown header ordinal, a partial block without the ordering field, a partial update mode other than KEEP_VALUES', async () => {
    const record = (t: string) => ({ ...meta(t, 0, 'TXN-013'), txn_ts: 1700600000113n, merchant_name: 'x' });
    const bad = await fixtureCopy(ZIP);
    const path = await appendPartialDeltaCommit(bad, { instant: t1, partitionPath: PART, fileId: FG, logBaseInstant: t1, blocks: [{ kind: 'partial', columns: ['txn_ts', 'merchant_name'], records: [record(t1)], isPartial: 'yes' }] });
    const e1 = await failure(snapshot(bad));
    expect(e1.code).toBe('UNSUPPORTED');
    expect(e1.context).toMatchObject({ field: 'IS_PARTIAL', value: 'yes', path });

    const unknown = await fixtureCopy(ZIP);
    const upath = await appendPartialDeltaCommit(unknown, { instant: t1, partitionPath: PART, fileId: FG, logBaseInstant: t1, blocks: [{ kind: 'partial', columns: ['txn_ts', 'merchant_name'], records: [record(t1)] }] });
    const bytes = (await unknown.read(upath)).slice();
    // The first header entry (INSTANT_TIME, key ordinal 0 at byte 26) becomes key ordinal 12.
    expect(new DataView(bytes.buffer).getInt32(26, false)).toBe(0);
    new DataView(bytes.buffer).setInt32(26, 12, false);
    await unknown.write(upath, bytes);
    const e2 = await failure(snapshot(unknown));
    expect(e2.code).toBe('UNSUPPORTED');
    expect(e2.context).toMatchObject({ field: 'header key 12', path: upath });

    const noOrdering = await fixtureCopy(ZIP);
    await appendPartialDeltaCommit(noOrdering, { instant: t1, partitionPath: PART, fileId: FG, logBaseInstant: t1, blocks: [{ kind: 'partial', columns: ['merchant_name'], records: [{ ...meta(t1, 0, 'TXN-013'), merchant_name: 'x' }] }] });
    const e3 = await failure(snapshot(noOrdering));
    expect(e3.code).toBe('UNSUPPORTED');
    expect(e3.context).toMatchObject({ field: 'txn_ts' });

    // A table whose partial update mode is not KEEP_VALUES (its full records merge by that mode's rules).
    const mode = await fixtureCopy(ZIP);
    const props = new TextDecoder().decode(await mode.read(PROPERTIES_PATH));
    await mode.write(PROPERTIES_PATH, new TextEncoder().encode(`${props}hoodie.table.partial.update.mode=IGNORE_DEFAULTS\n`));
    await appendPartialDeltaCommit(mode, { instant: t1, partitionPath: PART, fileId: FG, logBaseInstant: t1, blocks: [{ kind: 'partial', columns: ['txn_ts', 'merchant_name'], records: [record(t1)] }] });
    const e4 = await failure(snapshot(mode));
    expect(e4.code).toBe('UNSUPPORTED');
    expect(e4.context).toMatchObject({ field: 'hoodie.table.partial.update.mode', value: 'IGNORE_DEFAULTS' });
  });
});

describe('v6 MOR (quickstart_trips_table/mor/avro/v6_trips_8i1u): Hudi 1.x honours IS_PARTIAL whatever the table version', () => {
  const ZIP = 'quickstart_trips_table/mor/avro/v6_trips_8i1u.zip';
  const FG = 'd0304c53-6fd2-4b7a-a9d6-5ff632f79224-0';
  const PART = 'city=san_francisco';
  const BASE_INSTANT = '20250331030642808';
  const t = '20250331030700000';
  const K_LOGGED = '9909a8b1-2d15-4d3d-8ec9-efc48c536a00'; // updated by the fixture's own log (fare 25)
  const K_BASE = '334e26e9-8355-45cc-97c6-c31daf0df330';
  const meta = (i: number, key: string): Row => ({ _hoodie_commit_time: t, _hoodie_commit_seqno: `${t}_0_${i}`, _hoodie_record_key: key, _hoodie_partition_path: PART, _hoodie_file_name: FG });

  async function build(): Promise<{ storage: Storage; before: Map<string, Row>; want: Row[] }> {
    const storage = await fixtureCopy(ZIP);
    const before = byKey(await snapshot(storage));
    await appendPartialDeltaCommit(storage, {
      instant: t, partitionPath: PART, fileId: FG, logBaseInstant: BASE_INSTANT, logVersion: 2,
      blocks: [{
        kind: 'partial', columns: ['ts', 'fare'], records: [
          { ...meta(0, K_LOGGED), ts: 1695046463179n, fare: 30.5 },
          { ...meta(1, K_BASE), ts: 1695159649088n, fare: 20.25 },
        ],
      }],
    });
    const want = new Map(before);
    want.set(K_LOGGED, { ...(before.get(K_LOGGED) as Row), ...meta(0, K_LOGGED), ts: 1695046463179n, fare: 30.5 });
    want.set(K_BASE, { ...(before.get(K_BASE) as Row), ...meta(1, K_BASE), ts: 1695159649088n, fare: 20.25 });
    return { storage, before, want: sorted([...want.values()]) };
  }

  test('snapshot: the partial columns over the earlier log record and over the base; rider, driver, city kept', async () => {
    const { storage, before, want } = await build();
    expect(before.get(K_LOGGED)).toMatchObject({ fare: 25, rider: 'rider-D', driver: 'driver-L' });
    expect(await snapshot(storage)).toEqual(want);
  });

  test('table.compact() writes the merged rows (commit times kept) into the new base file', async () => {
    const { storage, want } = await build();
    const table = await openTable(storage);
    const results = await table.compact();
    expect(results.length).toBe(1);
    const ro = sorted(await collect((await openTable(storage)).rows({ readOptimized: true })));
    const strip = (rows: Row[]) => rows.map(({ _hoodie_file_name, ...r }) => r);
    expect(strip(ro)).toEqual(strip(want));
    expect(await snapshot(storage)).toEqual(ro);
  });
});
