// Incremental queries and time travel on table version 9 choose writes by completion time (Hudi 1.x), on
// hand-built tables: copies of the v9 txns fixtures whose timeline is cut down and one write's completed file
// renamed so that it completes after a write requested later. Expected rows derived by hand from the writes:
//   MOR  D1 …827749 insert TXN-001..008 · D2 …830801 TXN-001 → reversal (us) · D3 …832616 delete TXN-002 (us)
//        · D4 …833781 TXN-005 → 2500.00 (eu) · D5 …834808 delete TXN-005 (eu); D2 made to complete at …834500,
//        after D4 (…834136) and before D5 (…835085).
//   COW  C1 …657661 insert TXN-001..008 · C2 …700696 TXN-001 → reversal (us) · C4 …703515 TXN-005 → 2500.00 (eu);
//        C3 dropped (its file built on C2's), C2 made to complete at …703900, after C4 (…703845).
import { describe, expect, test } from 'vitest';
import { openTable, type Storage } from '../../src/index.js';
import { TableState } from '../../src/engine/table-state.js';
import { resolveIncremental } from '../../src/engine/read/query.js';
import { collect, fixtureCopy } from '../helpers/fixtures.js';
import { addTimelineFile, completedFile, dropInstants, setCompletionTime } from '../helpers/timeline-edit.js';
import { encodeLogBlock, scanLogBlocks } from '../../src/format/log/block.js';
import { decodeAvroDataBlock, encodeAvroDataBlockContent } from '../../src/format/log/content.js';
import { serializeCommitMetadataAvro } from '../../src/timeline/commit-metadata-avro.js';

const P = '20260307135';
const MOR = { d1: `${P}827749`, d2: `${P}830801`, d3: `${P}832616`, d4: `${P}833781`, d5: `${P}834808`, d1Done: `${P}829538`, d3Done: `${P}833037`, d4Done: `${P}834136`, d2Done: `${P}834500` };
const COW = { c1: `${P}657661`, c2: `${P}700696`, c3: `${P}702545`, c4: `${P}703515`, c4Done: `${P}703845`, c2Done: `${P}703900` };

async function overlappingMor(): Promise<Storage> {
  const s = await fixtureCopy('sample_table/mor/avro/v9_txns_simple_nometa.zip');
  await dropInstants(s, (t) => t > MOR.d5);
  await setCompletionTime(s, MOR.d2, MOR.d2Done);
  return s;
}

async function overlappingCow(): Promise<Storage> {
  const s = await fixtureCopy('sample_table/cow/v9_txns_simple_nometa.zip');
  await dropInstants(s, (t) => t === COW.c3 || t > COW.c4);
  await setCompletionTime(s, COW.c2, COW.c2Done);
  return s;
}

const view = (r: Record<string, unknown>) => `${r.txn_id} ${r.txn_type} ${r.amount} @${String(r._hoodie_commit_time).slice(-6)}`;
async function rowsOf(s: Storage, options: Record<string, unknown>): Promise<string[]> {
  const table = await openTable(s);
  return (await collect(table.rows({ columns: ['_hoodie_commit_time', 'txn_id', 'txn_type', 'amount'], ...options }))).map(view).sort();
}

describe('MOR v9, D2 requested before D3 and D4 but completed after them', () => {
  test('the timeline as built: completion order D1, D3, D4, D2, D5', async () => {
    const table = await openTable(await overlappingMor());
    const byCompletion = [...table.commits].sort((a, b) => ((a.completionTime ?? '') < (b.completionTime ?? '') ? -1 : 1)).map((c) => c.requestedTime);
    expect(byCompletion).toEqual([MOR.d1, MOR.d3, MOR.d4, MOR.d2, MOR.d5]);
  });

  test('incremental (D1, D4] holds the writes completed in it, D3 and D4 — not D2, requested inside it', async () => {
    const s = await overlappingMor();
    // Bounds given as requested times of completed writes stand for their completion times: (…829538, …834136].
    expect(await rowsOf(s, { from: MOR.d1, to: MOR.d4 })).toEqual(['TXN-005 credit 2500.00 @833781']);
    // The same window spelled with completion times.
    expect(await rowsOf(s, { from: MOR.d1Done, to: MOR.d4Done })).toEqual(['TXN-005 credit 2500.00 @833781']);
  });

  test('D2 is seen in the window where it completed', async () => {
    const s = await overlappingMor();
    expect(await rowsOf(s, { from: MOR.d4Done, to: MOR.d2Done })).toEqual(['TXN-001 reversal 1250.00 @830801']);
    // Open end: D2 and D5 completed after D4; D5 deleted TXN-005 (deletes are not reported).
    expect(await rowsOf(s, { from: MOR.d4 })).toEqual(['TXN-001 reversal 1250.00 @830801']);
    // Nothing completed in (…833037, …834000]: D4 completed at …834136.
    expect(await rowsOf(s, { from: MOR.d3Done, to: `${P}834000` })).toEqual([]);
  });

  test('the plan says the window is over completion times', async () => {
    const state = await TableState.load(await overlappingMor());
    const read = await resolveIncremental(state, { from: MOR.d1, to: MOR.d4 });
    expect(read.rangeType).toBe('completionTime');
    expect(read.completedBy).toBe(MOR.d4Done);
    expect([...(read.plan.commitTimes ?? [])].sort()).toEqual([MOR.d3, MOR.d4]);
  });

  test('time travel as of D4: D2 had not completed, so TXN-001 is still a debit', async () => {
    const s = await overlappingMor();
    const asOfD4 = await rowsOf(s, { asOf: MOR.d4 });
    expect(asOfD4).toEqual([
      'TXN-001 debit 1250.00 @827749', 'TXN-003 transfer 5000.00 @827749', 'TXN-004 debit 450.75 @827749', 'TXN-005 credit 2500.00 @833781',
      'TXN-006 debit 175.50 @827749', 'TXN-007 debit 8900.00 @827749', 'TXN-008 debit 320.25 @827749',
    ]);
    // As of D2's completion it is a reversal; D5 (completed later) has not deleted TXN-005 yet.
    const asOfD2Done = await rowsOf(s, { asOf: MOR.d2Done });
    expect(asOfD2Done).toContain('TXN-001 reversal 1250.00 @830801');
    expect(asOfD2Done).toContain('TXN-005 credit 2500.00 @833781');
    expect(asOfD2Done.length).toBe(7);
    // As of D3 (…833037): TXN-002 deleted, TXN-001 untouched.
    const asOfD3 = await rowsOf(s, { asOf: MOR.d3 });
    expect(asOfD3.filter((r) => r.startsWith('TXN-001') || r.startsWith('TXN-002'))).toEqual(['TXN-001 debit 1250.00 @827749']);
  });

  test('as of a time before D1 completed, the table is empty', async () => {
    const s = await overlappingMor();
    expect(await rowsOf(s, { asOf: `${P}828000` })).toEqual([]);
  });
});

describe('COW v9, C2 requested before C4 but completed after it', () => {
  test('incremental (C1, C4] holds only C4; C2 comes after C4', async () => {
    const s = await overlappingCow();
    expect(await rowsOf(s, { from: COW.c1, to: COW.c4 })).toEqual(['TXN-005 credit 2500.00 @703515']);
    expect(await rowsOf(s, { from: COW.c4 })).toEqual(['TXN-001 reversal 1250.00 @700696']);
    expect(await rowsOf(s, { from: COW.c4Done, to: COW.c2Done })).toEqual(['TXN-001 reversal 1250.00 @700696']);
  });

  test('time travel as of C4 reads the us group from C1\'s base file (C2\'s completed later)', async () => {
    const s = await overlappingCow();
    const rows = await rowsOf(s, { asOf: COW.c4 });
    expect(rows.length).toBe(8);
    expect(rows).toContain('TXN-001 debit 1250.00 @657661');
    expect(rows).toContain('TXN-002 debit 89.99 @657661');
    expect(rows).toContain('TXN-005 credit 2500.00 @703515');
    const latest = await rowsOf(s, {});
    expect(latest).toContain('TXN-001 reversal 1250.00 @700696');
    expect(latest.length).toBe(8);
    const table = await openTable(s);
    const usBases = (await table.fileSlices({ asOf: COW.c4 })).filter((sl) => sl.partitionPath === 'region=us').map((sl) => sl.baseFile?.instantTime);
    expect(usBases).toEqual([COW.c1]);
  });
});

describe('MOR v9, a deltacommit requested after compaction C was requested and completed before C', () => {
  // D1..D9 (…827749 … …839205) kept; compaction C …839895 of the us group (base D1, logs D2, D3) pending or
  // completed at …840408; DX …839950 (after C was requested) sets TXN-001 to 'chargeback', completing at
  // …839990 — after C's request, so its log belongs to C's slice, and before C completed.
  const C = `${P}839895`;
  const D9Done = `${P}839403`;
  const DX = `${P}839950`;
  const DXDone = `${P}839990`;
  const US = 'db2fca8f-03b7-4da7-b042-4b617ab79b9d-0';
  async function build(compaction: 'pending' | 'completed'): Promise<Storage> {
    const s = await fixtureCopy('sample_table/mor/avro/v9_txns_simple_nometa.zip');
    await dropInstants(s, (t) => t > C);
    if (compaction === 'pending') await completedFile(s, C, true);
    const d2Log = `region=us/.${US}_${MOR.d2}.log.1_0-10-23`;
    const [block] = scanLogBlocks(await s.read(d2Log)).blocks;
    const record = decodeAvroDataBlock(block!, d2Log).records[0] as Record<string, unknown>;
    const schema = block!.header.SCHEMA as string;
    const changed = { ...record, _hoodie_commit_time: DX, _hoodie_commit_seqno: `${DX}_0_1`, txn_type: 'chargeback', txn_ts: (record.txn_ts as bigint) + 1000n };
    const dxLog = `region=us/.${US}_${DX}.log.1_0-99-199`;
    const dxBytes = encodeLogBlock('AVRO_DATA', { INSTANT_TIME: DX, SCHEMA: schema }, encodeAvroDataBlockContent(schema, [changed]));
    await s.write(dxLog, dxBytes);
    // DX's commit metadata names its own log (a merge-on-read incremental read reads only the window's files).
    await addTimelineFile(s, `${DX}.deltacommit.requested`);
    const stat = { fileId: US, path: dxLog, partitionPath: 'region=us', prevCommit: MOR.d1, numWrites: 1, numUpdateWrites: 1, numInserts: 0, numDeletes: 0, totalWriteBytes: dxBytes.length, fileSizeInBytes: dxBytes.length, logFiles: [dxLog.slice('region=us/'.length)] };
    await addTimelineFile(s, `${DX}_${DXDone}.deltacommit`, serializeCommitMetadataAvro({ partitionToWriteStats: { 'region=us': [stat] }, operationType: 'UPSERT' }));
    return s;
  }
  const txn001 = async (s: Storage, options: Record<string, unknown>) => (await rowsOf(s, options)).filter((r) => r.startsWith('TXN-001'));

  test('compaction pending: DX\'s log is read on top of the slice before C (C\'s base file is not committed)', async () => {
    const s = await build('pending');
    expect(await txn001(s, {})).toEqual(['TXN-001 chargeback 1250.00 @839950']);
    expect(await txn001(s, { asOf: D9Done })).toEqual(['TXN-001 reversal 1250.00 @830801']);
    expect(await txn001(s, { readOptimized: true })).toEqual(['TXN-001 debit 1250.00 @827749']);
    const slice = (await (await openTable(s)).fileSlices()).find((x) => x.fileId === US)!;
    expect(slice.baseFile?.instantTime).toBe(MOR.d1);
    expect(slice.logFiles.map((l) => l.instantTime)).toEqual([MOR.d2, MOR.d3, DX]);
  });

  test('compaction completed: as of DX\'s completion C had not completed — D1\'s slice with D2, D3 and DX', async () => {
    const s = await build('completed');
    const table = await openTable(s);
    const latest = (await table.fileSlices()).find((x) => x.fileId === US)!;
    expect([latest.baseFile?.instantTime, latest.logFiles.map((l) => l.instantTime)]).toEqual([C, [DX]]);
    const asOfDX = (await table.fileSlices({ asOf: DXDone })).find((x) => x.fileId === US)!;
    expect([asOfDX.baseFile?.instantTime, asOfDX.logFiles.map((l) => l.instantTime)]).toEqual([MOR.d1, [MOR.d2, MOR.d3, DX]]);
    expect(await txn001(s, { asOf: DXDone })).toEqual(['TXN-001 chargeback 1250.00 @839950']);
    expect(await txn001(s, {})).toEqual(['TXN-001 chargeback 1250.00 @839950']);
    // Incremental over (D9, DX]: DX alone (C completed later).
    expect(await rowsOf(s, { from: D9Done, to: DXDone })).toEqual(['TXN-001 chargeback 1250.00 @839950']);
  });
});

describe('table version 6 keeps requested times', () => {
  test('the plan of a v6 incremental query ranges over requested times', async () => {
    const state = await TableState.load(await fixtureCopy('sample_table/cow/v6_nonpartitioned.zip'));
    const read = await resolveIncremental(state, { from: '20240418173550988' });
    expect(read.rangeType).toBe('requestedTime');
    expect(read.plan.commitTimeRange?.from).toBe('20240418173550988');
  });
});
