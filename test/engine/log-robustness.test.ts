// Log files as Spark leaves them on object stores and HDFS, built by hand on copies of the v6 fixture
// `v6_trips_8i1u` (D0 …642808 inserts 8 trips; D1 …645735 sets rider-D's fare 33.9 → 25.0 in
// `.d0304c53…_D0.log.1_0-26-85`) with lakelet's own log-block writer: a deltacommit written while a compaction
// is pending (its log named after the compaction instant, the compaction's base file not committed), several
// log versions and write tokens in one slice with a failed writer's log among them, and log compaction
// (`logcompaction` instants, COMPACTED_BLOCK_TIMES) completed, pending, rolled back and later than T.
// Expected fares derived by hand from the blocks each case writes.
import { describe, expect, test } from 'vitest';
import { openTable, type Storage } from '../../src/index.js';
import { encodeLogBlock, scanLogBlocks, type LogBlockHeader } from '../../src/format/log/block.js';
import { decodeAvroDataBlock, encodeAvroDataBlockContent } from '../../src/format/log/content.js';
import { collect, fixtureCopy } from '../helpers/fixtures.js';
import { addTimelineFile } from '../helpers/timeline-edit.js';

const D0 = '20250331030642808';
const D1 = '20250331030645735';
const FID = 'd0304c53-6fd2-4b7a-a9d6-5ff632f79224-0';
const PART = 'city=san_francisco';
const D1_LOG = `${PART}/.${FID}_${D0}.log.1_0-26-85`;
const RIDER_D = '9909a8b1-2d15-4d3d-8ec9-efc48c536a00';

/** The fixture's D1 update record and the schema of its block. */
async function d1Record(s: Storage): Promise<{ schema: string; record: Record<string, unknown> }> {
  const [block] = scanLogBlocks(await s.read(D1_LOG)).blocks;
  const { records } = decodeAvroDataBlock(block!, D1_LOG);
  return { schema: block!.header.SCHEMA as string, record: records[0] as Record<string, unknown> };
}

/** rider-D's record as written by `instant` with `fare` and ordering value D1's ts + `tsDelta`. */
function riderD(base: { record: Record<string, unknown> }, instant: string, fare: number, tsDelta: number): Record<string, unknown> {
  return { ...base.record, _hoodie_commit_time: instant, _hoodie_commit_seqno: `${instant}_0_1`, fare, ts: (base.record.ts as bigint) + BigInt(tsDelta) };
}

/** Write a log file holding one AVRO_DATA block (and optional extra header entries). */
async function writeLog(s: Storage, name: string, schema: string, header: LogBlockHeader, records: Record<string, unknown>[]): Promise<string> {
  const path = `${PART}/${name}`;
  await s.write(path, encodeLogBlock('AVRO_DATA', { SCHEMA: schema, ...header }, encodeAvroDataBlockContent(schema, records)));
  return path;
}

/** A completed deltacommit (layout 1) whose metadata is D1's with the log path swapped for `logPath`. */
async function completeDeltacommit(s: Storage, instant: string, logPath: string, action = 'deltacommit'): Promise<void> {
  const text = new TextDecoder().decode(await s.read(`.hoodie/${D1}.deltacommit`));
  const logName = logPath.slice(logPath.lastIndexOf('/') + 1);
  const out = text.replaceAll(`.${FID}_${D0}.log.1_0-26-85`, logName);
  if (action !== 'deltacommit') await addTimelineFile(s, `${instant}.${action}.requested`);
  await addTimelineFile(s, `${instant}.deltacommit`, new TextEncoder().encode(out));
}

const fareOfD = async (s: Storage, options: Record<string, unknown> = {}): Promise<unknown[]> => {
  const table = await openTable(s);
  return (await collect(table.rows({ columns: ['uuid', 'fare'], ...options }))).filter((r) => r.uuid === RIDER_D).map((r) => r.fare);
};

describe('a deltacommit while compaction T is pending (v6: its log is named after T)', () => {
  const T = '20250331030650000';
  const D2 = '20250331030655000';
  async function build(): Promise<Storage> {
    const s = await fixtureCopy('quickstart_trips_table/mor/avro/v6_trips_8i1u.zip');
    const base = await d1Record(s);
    await addTimelineFile(s, `${T}.compaction.requested`);
    await addTimelineFile(s, `${T}.compaction.inflight`);
    // The compaction in flight has started writing its base file: not committed, never read.
    const oldBase = (await s.list(PART)).find((f) => f.path.endsWith(`_${D0}.parquet`))!;
    await s.write(`${PART}/${FID}_0-40-100_${T}.parquet`, await s.read(oldBase.path));
    const log = await writeLog(s, `.${FID}_${T}.log.1_0-30-90`, base.schema, { INSTANT_TIME: D2 }, [riderD(base, D2, 11.0, 1000)]);
    await completeDeltacommit(s, D2, log);
    return s;
  }

  test('snapshot merges the slice before T with the pending slice\'s logs (Hudi\'s merged file slice)', async () => {
    const s = await build();
    expect(await fareOfD(s)).toEqual([11.0]);
    expect((await collect((await openTable(s)).rows())).length).toBe(8);
    const slice = (await (await openTable(s)).fileSlices()).find((x) => x.fileId === FID)!;
    expect(slice.baseInstantTime).toBe(D0);
    expect(slice.logFiles.map((l) => l.name)).toEqual([`.${FID}_${D0}.log.1_0-26-85`, `.${FID}_${T}.log.1_0-30-90`]);
  });

  test('time travel, read-optimized and incremental reads', async () => {
    const s = await build();
    expect(await fareOfD(s, { asOf: D1 })).toEqual([25.0]);
    expect(await fareOfD(s, { asOf: D2 })).toEqual([11.0]);
    // Read-optimized: the latest committed base file (D0's), no logs; T's base file is not committed.
    expect(await fareOfD(s, { readOptimized: true })).toEqual([33.9]);
    const table = await openTable(s);
    expect((await collect(table.rows({ from: D1, to: D2, columns: ['uuid', 'fare'] })))).toEqual([{ uuid: RIDER_D, fare: 11.0 }]);
    expect((await collect(table.rows({ from: D0, to: D1, columns: ['uuid', 'fare'] })))).toEqual([{ uuid: RIDER_D, fare: 25.0 }]);
  });
});

describe('several log versions and write tokens in one slice', () => {
  const D2 = '20250331030655000';
  const FAILED = '20250331030656000';
  const GONE = '20250331030657000';
  async function build(): Promise<Storage> {
    const s = await fixtureCopy('quickstart_trips_table/mor/avro/v6_trips_8i1u.zip');
    const base = await d1Record(s);
    // D2 rolled over to version 2; a failed attempt of another writer left `.log.2_1-0-1` (instant still inflight);
    // a writer rolled back (its instants removed) left `.log.3_0-1-1`.
    const log = await writeLog(s, `.${FID}_${D0}.log.2_0-30-90`, base.schema, { INSTANT_TIME: D2 }, [riderD(base, D2, 11.0, 1000)]);
    await completeDeltacommit(s, D2, log);
    await writeLog(s, `.${FID}_${D0}.log.2_1-0-1`, base.schema, { INSTANT_TIME: FAILED }, [riderD(base, FAILED, 99.0, 5000)]);
    await addTimelineFile(s, `${FAILED}.deltacommit.requested`);
    await addTimelineFile(s, `${FAILED}.deltacommit.inflight`);
    await writeLog(s, `.${FID}_${D0}.log.3_0-1-1`, base.schema, { INSTANT_TIME: GONE }, [riderD(base, GONE, 77.0, 6000)]);
    return s;
  }

  test('logs are ordered by base instant, version, then write token; only committed writers count', async () => {
    const s = await build();
    const slice = (await (await openTable(s)).fileSlices()).find((x) => x.fileId === FID)!;
    expect(slice.logFiles.map((l) => l.name.slice(l.name.indexOf('.log.')))).toEqual(['.log.1_0-26-85', '.log.2_0-30-90', '.log.2_1-0-1', '.log.3_0-1-1']);
    expect(await fareOfD(s)).toEqual([11.0]);
    expect(await fareOfD(s, { asOf: D1 })).toEqual([25.0]);
  });
});

describe('log compaction', () => {
  const D2 = '20250331030655000';
  const LC = '20250331030660000';
  /**
   * D2 sets the fare to 11.0 (ts +1000) in `.log.2`; log compaction LC writes `.log.3` with one block that
   * claims to merge D1 and D2 (COMPACTED_BLOCK_TIMES) but carries fare 55.0 at ts +500: if D2's block still
   * counted, event-time ordering would keep 11.0 — so 55.0 shows D1 and D2 were replaced by the compacted block.
   */
  async function build(state: 'completed' | 'pending' | 'rolled back'): Promise<Storage> {
    const s = await fixtureCopy('quickstart_trips_table/mor/avro/v6_trips_8i1u.zip');
    const base = await d1Record(s);
    const log2 = await writeLog(s, `.${FID}_${D0}.log.2_0-30-90`, base.schema, { INSTANT_TIME: D2 }, [riderD(base, D2, 11.0, 1000)]);
    await completeDeltacommit(s, D2, log2);
    const log3 = await writeLog(s, `.${FID}_${D0}.log.3_0-40-100`, base.schema, { INSTANT_TIME: LC, COMPACTED_BLOCK_TIMES: `${D1},${D2}` }, [riderD(base, LC, 55.0, 500)]);
    await addTimelineFile(s, `${LC}.logcompaction.inflight`);
    if (state === 'completed') await completeDeltacommit(s, LC, log3, 'logcompaction');
    else await addTimelineFile(s, `${LC}.logcompaction.requested`);
    if (state === 'rolled back') {
      const RB = '20250331030665000';
      await s.write(`${PART}/.${FID}_${D0}.log.4_0-1-1`, encodeLogBlock('COMMAND', { INSTANT_TIME: RB, TARGET_INSTANT_TIME: LC, COMMAND_BLOCK_TYPE: '0' }));
    }
    return s;
  }

  test('a completed log compaction\'s block replaces the blocks it compacted (none counted twice)', async () => {
    const s = await build('completed');
    expect(await fareOfD(s)).toEqual([55.0]);
    // As of D2 the log compaction has not happened: D1 then D2.
    expect(await fareOfD(s, { asOf: D2 })).toEqual([11.0]);
  });

  test('a pending log compaction is ignored: the blocks it would replace still count', async () => {
    expect(await fareOfD(await build('pending'))).toEqual([11.0]);
  });

  test('a rolled-back log compaction is ignored', async () => {
    expect(await fareOfD(await build('rolled back'))).toEqual([11.0]);
  });
});
