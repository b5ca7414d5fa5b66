// Archival of layout-2 (v9) timelines into the LSM history, on copies of the v9 COW fixture grown with commits
// (lsm-archival-timeline.ts): what an archival writes (one layer-0 parquet file of HoodieLSMTimelineInstant rows
// holding the instants' raw files, manifest_1 as Jackson prints it, `_version_`), what it deletes, reads before
// and after (snapshot, time travel and incremental to archived commits, commit metadata of an archived instant),
// layer compaction and the history clean over several rounds, the metadata table's bound, and how the reader
// copes with a missing or stale version file.
import { describe, expect, test } from 'vitest';
import { engineContext } from '../../src/engine/context.js';
import { loadArchivedTimeline, readCommitMetadataOrArchived } from '../../src/engine/read/archived-fallback.js';
import { archive, metadataTableTimeline } from '../../src/engine/services/archival.js';
import { loadTableConfig } from '../../src/engine/table-state.js';
import { bufferFromBytes, readParquetFooter } from '../../src/format/parquet/read.js';
import { parseCommitMetadata } from '../../src/timeline/commit-metadata.js';
import { decodeLsmFile } from '../../src/timeline/lsm-instant.js';
import { fixtureCopy, fixtureStorage } from '../helpers/fixtures.js';
import type { Storage } from '../../src/index.js';
import { ARCHIVABLE, archivedOf, FIXTURE_WRITES, grownFixture, HISTORY, namesIn, readsOf, requestedOf, TIMELINE, V9_FIXTURE } from './lsm-archival-timeline.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const bytes = (s: string) => new TextEncoder().encode(s);
const L0_FILE = '20260307135657661_20260307135706094_0.parquet';
/** HoodieLSMTimelineInstant.avsc as Avro's generated class prints it (strings as Java String). */
const HUDI_SCHEMA_TEXT =
  '{"type":"record","name":"HoodieLSMTimelineInstant","namespace":"org.apache.hudi.avro.model","fields":[' +
  '{"name":"instantTime","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},' +
  '{"name":"completionTime","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},' +
  '{"name":"action","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},' +
  '{"name":"metadata","type":["null","bytes"],"default":null},' +
  '{"name":"plan","type":["null","bytes"],"default":null},' +
  '{"name":"version","type":"int","default":1}]}';

/** Every state file of the fixture instants `names` (completed name given). */
const stateFiles = (names: readonly string[]) => names.flatMap((n) => [n, `${requestedOf(n)}.commit.requested`, `${requestedOf(n)}.inflight`]);

describe('archiving a v9 timeline into the LSM history', async () => {
  const storage = await grownFixture(25);
  const before = await readsOf(storage, ARCHIVABLE.map(requestedOf));
  const timelineBefore = await namesIn(storage, TIMELINE);
  const done = await archive(engineContext(storage));

  test('archives the commits before the first replacecommit (never cleaned), with Hudi\'s 20/30 limits', () => {
    expect(done.map((i) => i.fileName)).toEqual(ARCHIVABLE);
  });

  test('writes one layer-0 file named by its instant range, manifest_1 listing it, and _version_ = 1', async () => {
    expect(await namesIn(storage, HISTORY)).toEqual([L0_FILE, '_version_', 'manifest_1']);
    expect(text(await storage.read(`${HISTORY}/_version_`))).toBe('1');
    const len = (await storage.head(`${HISTORY}/${L0_FILE}`)).size;
    expect(text(await storage.read(`${HISTORY}/manifest_1`))).toBe(`{\n  "files" : [ {\n    "fileName" : "${L0_FILE}",\n    "fileLen" : ${len}\n  } ]\n}`);
  });

  test('the file holds one HoodieLSMTimelineInstant row per instant: times, action, the completed file\'s bytes, no plan', async () => {
    const fixture = await fixtureStorage(V9_FIXTURE);
    const data = await storage.read(`${HISTORY}/${L0_FILE}`);
    const rows = await decodeLsmFile(data, L0_FILE);
    const expected = [];
    for (const name of ARCHIVABLE) {
      expected.push({ instantTime: requestedOf(name), completionTime: name.slice(18, 35), action: 'commit', metadata: await fixture.read(`${TIMELINE}/${name}`), plan: null, version: 1 });
    }
    expect(rows).toEqual(expected);
    const footer = await readParquetFooter(bufferFromBytes(data), L0_FILE);
    expect(footer.keyValues['parquet.avro.schema']).toBe(HUDI_SCHEMA_TEXT);
    expect(Object.keys(footer.keyValues).filter((k) => k.includes('bloom') || k.includes('record_key'))).toEqual([]);
    expect(footer.columns).toEqual(['instantTime', 'completionTime', 'action', 'metadata', 'plan', 'version']);
  });

  test('deletes every state file of the archived instants and nothing else from the timeline', async () => {
    const gone = new Set(stateFiles(ARCHIVABLE));
    expect(await namesIn(storage, TIMELINE)).toEqual(timelineBefore.filter((n) => !gone.has(n)));
  });

  test('reads are unchanged: snapshot, time travel and incremental reads to and from archived commits', async () => {
    expect(await readsOf(storage, ARCHIVABLE.map(requestedOf))).toEqual(before);
  });

  test('the archived timeline lists the instants with their completion times; commit metadata comes from the history', async () => {
    const archived = await archivedOf(storage);
    expect(archived.completedWrites().map((i) => i.fileName)).toEqual(ARCHIVABLE);
    const fixture = await fixtureStorage(V9_FIXTURE);
    const first = archived.completedWrites()[0]!;
    const config = await loadTableConfig(storage);
    const expected = parseCommitMetadata(await fixture.read(`${TIMELINE}/${ARCHIVABLE[0]}`), ARCHIVABLE[0]!);
    expect(await readCommitMetadataOrArchived(storage, config, first)).toEqual(expected);
    expect(archived.commitMetadata(first.requestedTime)).toEqual(expected);
  });

  test('a second archival finds nothing more to do (the replacecommit bounds it) and changes nothing', async () => {
    const history = await namesIn(storage, HISTORY);
    expect(await archive(engineContext(storage))).toEqual([]);
    expect(await namesIn(storage, HISTORY)).toEqual(history);
  });
});

describe('layer compaction and the history clean, over four archival rounds (batch size 2)', async () => {
  const storage = await grownFixture(10);
  const before = await readsOf(storage, ARCHIVABLE.map(requestedOf));
  const name = (a: number, b: number, layer: number) => `${requestedOf(ARCHIVABLE[a]!)}_${requestedOf(ARCHIVABLE[b]!)}_${layer}.parquet`;
  /** One round: limits just below the counted instants, so the two oldest go (one when the replacecommit stops it). */
  const round = async () => {
    const counted = FIXTURE_WRITES.length + 10 - (await archivedOf(storage)).instants.length;
    return (await archive(engineContext(storage), { keepMinCommits: counted - 2, keepMaxCommits: counted - 1, historyCompaction: { batchSize: 2 } })).map((i) => i.requestedTime);
  };
  const manifest = async (v: number) => JSON.parse(text(await storage.read(`${HISTORY}/manifest_${v}`))).files.map((f: { fileName: string }) => f.fileName);
  const snapshots: { version: string; names: string[] }[] = [];
  for (let r = 0; r < 4; r++) {
    await round();
    snapshots.push({ version: text(await storage.read(`${HISTORY}/_version_`)), names: await namesIn(storage, HISTORY) });
  }

  test('round 1: one layer-0 file; round 2: two layer-0 files compact into layer 1 (manifest 3)', () => {
    expect(snapshots[0]).toEqual({ version: '1', names: [name(0, 1, 0), '_version_', 'manifest_1'] });
    expect(snapshots[1]).toEqual({ version: '3', names: [name(0, 1, 0), name(0, 3, 1), name(2, 3, 0), '_version_', 'manifest_1', 'manifest_2', 'manifest_3'] });
  });

  test('round 3: a layer-0 file beside layer 1; the clean keeps manifests 2–4 and the files they list', () => {
    expect(snapshots[2]).toEqual({ version: '4', names: [name(0, 1, 0), name(0, 3, 1), name(2, 3, 0), name(4, 5, 0), '_version_', 'manifest_2', 'manifest_3', 'manifest_4'] });
  });

  test('round 4: two layer-0 files → layer 1, two layer-1 files → layer 2; the clean keeps 3 + 2 manifests', async () => {
    expect(snapshots[3]).toEqual({
      version: '7',
      names: [name(0, 3, 1), name(4, 5, 0), name(4, 6, 1), name(6, 6, 0), name(0, 6, 2), '_version_', 'manifest_3', 'manifest_4', 'manifest_5', 'manifest_6', 'manifest_7'].sort(),
    });
    expect(await manifest(7)).toEqual([name(0, 6, 2)]);
    expect(await manifest(5)).toEqual([name(0, 3, 1), name(4, 5, 0), name(6, 6, 0)]);
    const rows = await decodeLsmFile(await storage.read(`${HISTORY}/${name(0, 6, 2)}`), 'l2');
    expect(rows.map((r) => r.instantTime)).toEqual(ARCHIVABLE.map(requestedOf));
  });

  test('every archived instant is listed once and reads are unchanged', async () => {
    expect((await archivedOf(storage)).completedWrites().map((i) => i.fileName)).toEqual(ARCHIVABLE);
    expect(await readsOf(storage, ARCHIVABLE.map(requestedOf))).toEqual(before);
  });
});

describe('the metadata table bounds archival: no MDT compaction, no archival', () => {
  /** A grown fixture declaring an MDT whose timeline holds `mdtFiles` (the data table's properties copied as its own). */
  async function withMdt(mdtFiles: string[]) {
    const storage = await grownFixture(25);
    const props = text(await storage.read('.hoodie/hoodie.properties'));
    await storage.write('.hoodie/hoodie.properties', bytes(`${props}hoodie.table.metadata.partitions=files\n`));
    await storage.write('.hoodie/metadata/.hoodie/hoodie.properties', bytes(props));
    for (const f of mdtFiles) await storage.write(`.hoodie/metadata/.hoodie/timeline/${f}`, new Uint8Array(0));
    return storage;
  }

  test('an MDT with deltacommits only (never compacted): nothing is archived', async () => {
    const storage = await withMdt(['20260307135657661_20260307135659000.deltacommit', '20260307135700696_20260307135701000.deltacommit']);
    expect(await archive(engineContext(storage))).toEqual([]);
    expect(await namesIn(storage, HISTORY)).toEqual([]);
  });

  test('an MDT compacted at T: only writes completed by T are archived', async () => {
    // The compaction's requested time lies after commit 3 completed (…702889) and before commit 4 completed (…703845).
    const storage = await withMdt(['20260307135700696_20260307135701000.deltacommit', '20260307135703000.compaction.requested', '20260307135703000_20260307135703100.commit']);
    expect((await archive(engineContext(storage))).map((i) => i.fileName)).toEqual(ARCHIVABLE.slice(0, 3));
  });

  test("a Spark-written MDT (HFile table, deltacommits only): its timeline is read and nothing is archived", async () => {
    const storage = await fixtureCopy('sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip');
    const config = await loadTableConfig(storage);
    const mdt = await metadataTableTimeline(storage, config);
    // The fixture's MDT: 4 partition initialisations and one deltacommit per data commit, no compaction.
    expect(mdt?.completed().map((i) => i.action)).toEqual(Array(8).fill('deltacommit'));
    expect(await archive(engineContext(storage), { keepMinCommits: 1, keepMaxCommits: 2 })).toEqual([]);
    expect(await namesIn(storage, HISTORY)).toEqual([]);
  });

  test('a table declaring an MDT whose folder is missing archives nothing', async () => {
    const storage = await grownFixture(25);
    const props = text(await storage.read('.hoodie/hoodie.properties'));
    await storage.write('.hoodie/hoodie.properties', bytes(`${props}hoodie.table.metadata.partitions=files\n`));
    expect(await archive(engineContext(storage))).toEqual([]);
  });
});

describe('reading the history', async () => {
  const storage = await grownFixture(25);
  await archive(engineContext(storage), { keepMinCommits: 33, keepMaxCommits: 34 }); // 4 instants → version 1
  await archive(engineContext(storage), { keepMinCommits: 31, keepMaxCommits: 32 }); // 2 more → version 2
  const config = await loadTableConfig(storage);
  const times = async () => (await loadArchivedTimeline(storage, config)).completedWrites().map((i) => i.requestedTime);

  test('the version file names the snapshot read', async () => {
    expect(text(await storage.read(`${HISTORY}/_version_`))).toBe('2');
    expect(await times()).toEqual(ARCHIVABLE.slice(0, 6).map(requestedOf));
    await storage.write(`${HISTORY}/_version_`, bytes('1'));
    expect(await times()).toEqual(ARCHIVABLE.slice(0, 4).map(requestedOf));
  });

  test('a missing or unreadable version file: the newest manifest', async () => {
    await storage.write(`${HISTORY}/_version_`, bytes('garbage'));
    expect(await times()).toEqual(ARCHIVABLE.slice(0, 6).map(requestedOf));
    await storage.delete(`${HISTORY}/_version_`);
    expect(await times()).toEqual(ARCHIVABLE.slice(0, 6).map(requestedOf));
  });

  test('an instant archived twice (a crash before the instant files went) is listed once', async () => {
    await storage.write(`${HISTORY}/_version_`, bytes('2'));
    const m2 = JSON.parse(text(await storage.read(`${HISTORY}/manifest_2`)));
    const again = `${requestedOf(ARCHIVABLE[0]!)}_${requestedOf(ARCHIVABLE[5]!)}_0.parquet`;
    const rows = [...(await decodeLsmFile(await storage.read(`${HISTORY}/${m2.files[0].fileName}`), 'a')), ...(await decodeLsmFile(await storage.read(`${HISTORY}/${m2.files[1].fileName}`), 'b'))];
    const { encodeLsmFile } = await import('../../src/timeline/lsm-instant.js');
    const data = encodeLsmFile(rows);
    await storage.write(`${HISTORY}/${again}`, data);
    await storage.write(`${HISTORY}/manifest_3`, bytes(JSON.stringify({ files: [...m2.files, { fileName: again, fileLen: data.length }] })));
    await storage.write(`${HISTORY}/_version_`, bytes('3'));
    expect(await times()).toEqual(ARCHIVABLE.slice(0, 6).map(requestedOf));
  });

  test('a snapshot cleaned away while it is read: the reader starts again from the newest version', async () => {
    const fresh = await grownFixture(25);
    await archive(engineContext(fresh), { keepMinCommits: 33, keepMaxCommits: 34 });
    await archive(engineContext(fresh), { keepMinCommits: 31, keepMaxCommits: 32 });
    await fresh.write(`${HISTORY}/_version_`, bytes('1'));
    // A concurrent archival publishes version 2 and its clean removes manifest_1 just as this reader gets to it.
    let raced = 0;
    const racing: Storage = {
      label: 'racing',
      readOnly: false,
      head: (path) => fresh.head(path),
      write: (path, b) => fresh.write(path, b),
      writeIfAbsent: (path, b) => fresh.writeIfAbsent(path, b),
      list: (path, options) => fresh.list(path, options),
      delete: (path) => fresh.delete(path),
      read: async (path, range) => {
        if (path === `${HISTORY}/manifest_1` && raced++ === 0) {
          await fresh.write(`${HISTORY}/_version_`, bytes('2'));
          await fresh.delete(path);
        }
        return fresh.read(path, range);
      },
    };
    const timeline = await loadArchivedTimeline(racing, config);
    expect(raced).toBe(1);
    expect(timeline.completedWrites().map((i) => i.requestedTime)).toEqual(ARCHIVABLE.slice(0, 6).map(requestedOf));
  });

  test('a manifest that is not JSON is CORRUPT_FILE naming it', async () => {
    await storage.write(`${HISTORY}/manifest_4`, bytes('{oops'));
    await storage.write(`${HISTORY}/_version_`, bytes('4'));
    await expect(loadArchivedTimeline(storage, config)).rejects.toMatchObject({ code: 'CORRUPT_FILE', context: { path: `${HISTORY}/manifest_4` } });
  });

});
