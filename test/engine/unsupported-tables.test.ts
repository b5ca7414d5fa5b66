// Tables lakelet cannot maintain (issue 9 item 6): every mutating operation on a table whose hoodie.properties
// enables a metadata table, CDC, partial updates or a merge lakelet does not implement (or that has a
// .hoodie/metadata folder) is refused with UNSUPPORTED naming the property, and the file tree stays
// byte-identical; reads keep working.
import { describe, expect, it } from 'vitest';
import { createTable, memoryStorage, openTable, type Storage, type Table } from '../../src/index.js';
import { LakeletError } from '../../src/errors.js';
import { formatProperties, parseProperties } from '../../src/config/properties.js';
import { tableSupportProblems } from '../../src/engine/table-support.js';
import { loadTableConfig } from '../../src/engine/table-state.js';
import { expectTreeUnchanged, treeSnapshot } from '../helpers/tree-snapshot.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'ut',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: ['null', 'double'], default: null }],
};
const OPTIONS = { bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false }, compaction: { inline: false } };

async function rowsOf(table: Table): Promise<string[]> {
  const out: string[] = [];
  for await (const r of table.rows({ columns: ['id', 'part', 'ts', 'v'] })) out.push(`${r.part}|${r.id}|${r.ts}|${r.v}`);
  return out.sort();
}

let tables = 0;
/** A lakelet table with two commits (MOR: a log on top of a base file) and a savepoint on the first. */
async function sampleTable(type: 'COPY_ON_WRITE' | 'MERGE_ON_READ'): Promise<{ storage: Storage; savepoint: string }> {
  const storage = memoryStorage({ label: `unsupported-${tables++}` });
  const table = await createTable(storage, { name: 'ut', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...OPTIONS });
  await table.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }, { id: 'b', part: 'y', ts: 1, v: 2 }], OPTIONS);
  const sp = await table.savepoint();
  await table.upsert([{ id: 'a', part: 'x', ts: 2, v: 10 }], OPTIONS);
  return { storage, savepoint: sp.instant };
}

/** Rewrite hoodie.properties with `key` set to `value` (the checksum covers only the name). */
async function setProperty(storage: Storage, key: string, value: string): Promise<void> {
  const props = parseProperties(new TextDecoder().decode(await storage.read('.hoodie/hoodie.properties')));
  props.set(key, value);
  await storage.write('.hoodie/hoodie.properties', new TextEncoder().encode(formatProperties(props, ['edited by a test'])));
}

type Op = [string, (t: Table, savepoint: string) => Promise<unknown>];
const OPS: Op[] = [
  ['upsert', (t) => t.upsert([{ id: 'c', part: 'x', ts: 1, v: 3 }], OPTIONS)],
  ['insert', (t) => t.insert([{ id: 'c', part: 'x', ts: 1, v: 3 }], OPTIONS)],
  ['bulkInsert', (t) => t.bulkInsert([{ id: 'c', part: 'x', ts: 1, v: 3 }], OPTIONS)],
  ['delete', (t) => t.delete(['a'], OPTIONS)],
  ['insertOverwrite', (t) => t.insertOverwrite([{ id: 'c', part: 'x', ts: 1, v: 3 }], OPTIONS)],
  ['insertOverwriteTable', (t) => t.insertOverwriteTable([{ id: 'c', part: 'x', ts: 1, v: 3 }], OPTIONS)],
  ['deletePartitions', (t) => t.deletePartitions(['part=x'], OPTIONS)],
  ['compact', (t) => t.compact()],
  ['clean', (t) => t.clean({ retainCommits: 1 })],
  ['archive', (t) => t.archive({ keepMinCommits: 1, keepMaxCommits: 2 })],
  ['savepoint', (t) => t.savepoint()],
  ['deleteSavepoint', (t, sp) => t.deleteSavepoint(sp)],
  ['restore', (t, sp) => t.restore(sp)],
  ['rollback', (t) => t.rollback()],
];

async function refusal(p: Promise<unknown>): Promise<LakeletError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof LakeletError) return err;
    throw err;
  }
  throw new Error('expected the operation to be refused');
}

/** Every operation is refused naming `field`, the tree is unchanged, and reads still return the same rows. */
async function expectAllRefused(storage: Storage, savepoint: string, field: string, ops: readonly Op[] = OPS): Promise<void> {
  const table = await openTable(storage);
  const rows = await rowsOf(table);
  expect(rows.length).toBe(2);
  const before = await treeSnapshot(storage);
  for (const [name, op] of ops) {
    const err = await refusal(op(table, savepoint));
    expect({ name, code: err.code, field: err.context.field }).toEqual({ name, code: 'UNSUPPORTED', field });
    expect(err.message).toContain(field);
    await expectTreeUnchanged(storage, before);
  }
  expect(await rowsOf(await openTable(storage))).toEqual(rows);
}

const CASES: [string, string, string][] = [
  ['the metadata table enabled', 'hoodie.table.metadata.partitions', 'files'],
  ['metadata table partitions being built', 'hoodie.table.metadata.partitions.inflight', 'files,record_index'],
  ['an unknown CDC supplemental logging mode', 'hoodie.table.cdc.supplemental.logging.mode', 'FULL_IMAGES'],
  ['a partial-update payload', 'hoodie.compaction.payload.class', 'org.apache.hudi.common.model.PartialUpdateAvroPayload'],
  ['a custom payload', 'hoodie.compaction.payload.class', 'com.example.MyPayload'],
  ['the CUSTOM merge mode', 'hoodie.record.merge.mode', 'CUSTOM'],
  ['a custom merger strategy (v6)', 'hoodie.compaction.record.merger.strategy', '1897ef5f-18bc-4557-939c-9d6a8afd1519'],
  ['a partial update mode', 'hoodie.table.partial.update.mode', 'IGNORE_DEFAULTS'],
  ['custom merge properties', 'hoodie.table.merge.properties', 'hoodie.payload.delete.field=Op'],
  ['a bootstrapped table', 'hoodie.bootstrap.base.path', 's3://bucket/source'],
];

describe.each(['COPY_ON_WRITE', 'MERGE_ON_READ'] as const)('%s', (type) => {
  it.each(CASES)('%s (%s) → every mutating operation is UNSUPPORTED, nothing written', async (_label, key, value) => {
    const { storage, savepoint } = await sampleTable(type);
    await setProperty(storage, key, value);
    await expectAllRefused(storage, savepoint, key);
  });

  it('a .hoodie/metadata folder (even with empty metadata partitions) → UNSUPPORTED naming it', async () => {
    const { storage, savepoint } = await sampleTable(type);
    await setProperty(storage, 'hoodie.table.metadata.partitions', '');
    await storage.write('.hoodie/metadata/.hoodie/hoodie.properties', new TextEncoder().encode('hoodie.table.name=ut_metadata\n'));
    await expectAllRefused(storage, savepoint, '.hoodie/metadata');
  });

  it('a base file format other than parquet → UNSUPPORTED for a table opened before the change', async () => {
    const { storage, savepoint } = await sampleTable(type);
    const table = await openTable(storage);
    await setProperty(storage, 'hoodie.table.base.file.format', 'ORC');
    const before = await treeSnapshot(storage);
    for (const [name, op] of OPS) {
      const err = await refusal(op(table, savepoint));
      expect({ name, code: err.code, field: err.context.field }).toEqual({ name, code: 'UNSUPPORTED', field: 'hoodie.table.base.file.format' });
      await expectTreeUnchanged(storage, before);
    }
  });

  it('no meta fields → writes and compaction refused before anything is written; services still run', async () => {
    const { storage, savepoint } = await sampleTable(type);
    await setProperty(storage, 'hoodie.populate.meta.fields', 'false');
    const writes = OPS.filter(([n]) => !['clean', 'archive', 'savepoint', 'deleteSavepoint', 'restore', 'rollback'].includes(n));
    await expectAllRefused(storage, savepoint, 'hoodie.populate.meta.fields', writes);
    await (await openTable(storage)).savepoint();
  });

  it('an unknown key generator → writes refused before anything is written', async () => {
    const { storage, savepoint } = await sampleTable(type);
    await setProperty(storage, 'hoodie.table.keygenerator.class', 'com.example.MyKeyGenerator');
    const writes = OPS.filter(([n]) => ['upsert', 'insert', 'bulkInsert', 'delete', 'insertOverwrite', 'insertOverwriteTable', 'deletePartitions'].includes(n));
    await expectAllRefused(storage, savepoint, 'hoodie.table.keygenerator.class', writes);
  });

  it('the merge settings lakelet writes itself are accepted', async () => {
    const { storage } = await sampleTable(type);
    const config = await loadTableConfig(storage);
    for (const op of ['write', 'compact', 'clean', 'archive', 'savepoint', 'deleteSavepoint', 'restore', 'rollback'] as const) {
      expect(tableSupportProblems(config, false, op)).toEqual([]);
    }
    await setProperty(storage, 'hoodie.compaction.payload.class', 'org.apache.hudi.common.model.OverwriteWithLatestAvroPayload');
    await setProperty(storage, 'hoodie.record.merge.mode', 'COMMIT_TIME_ORDERING');
    await setProperty(storage, 'hoodie.table.metadata.partitions', '');
    const table = await openTable(storage);
    await table.upsert([{ id: 'c', part: 'x', ts: 1, v: 3 }], OPTIONS);
    expect(await rowsOf(table)).toContain('x|c|1|3');
  });
});

describe('tableSupportProblems', () => {
  it('lists every problem; the error names the first and counts the rest', async () => {
    const { storage } = await sampleTable('COPY_ON_WRITE');
    await setProperty(storage, 'hoodie.table.cdc.supplemental.logging.mode', 'FULL_IMAGES');
    await setProperty(storage, 'hoodie.table.metadata.partitions', 'files');
    const problems = tableSupportProblems(await loadTableConfig(storage), true, 'write').map((p) => p.property);
    expect(problems).toEqual(['hoodie.table.metadata.partitions', '.hoodie/metadata', 'hoodie.table.cdc.supplemental.logging.mode']);
    const err = await refusal((await openTable(storage)).upsert([{ id: 'c', part: 'x', ts: 1, v: 3 }]));
    expect(err.message).toMatch(/^write: table "ut" cannot be maintained by lakelet: hoodie\.table\.metadata\.partitions=files/);
    expect(err.message).toContain('hoodie.table.cdc.supplemental.logging.mode');
    expect((err.context.problems as unknown[]).length).toBe(2);
  });
});

describe('opt-in: disableMetadataTable (what Hudi does with hoodie.metadata.enable=false)', () => {
  it('clears the metadata partitions, deletes .hoodie/metadata, and the table becomes writable', async () => {
    const { storage } = await sampleTable('MERGE_ON_READ');
    await setProperty(storage, 'hoodie.table.metadata.partitions', 'files,record_index');
    await setProperty(storage, 'hoodie.table.metadata.partitions.inflight', 'column_stats');
    await storage.write('.hoodie/metadata/.hoodie/hoodie.properties', new TextEncoder().encode('hoodie.table.name=ut_metadata\n'));
    await storage.write('.hoodie/metadata/files/files-0000-0_0-1-2_00000000000000000.hfile', new Uint8Array([1, 2, 3]));
    const propsBefore = parseProperties(new TextDecoder().decode(await storage.read('.hoodie/hoodie.properties')));
    const table = await openTable(storage);
    const rows = await rowsOf(table);
    expect((await refusal(table.upsert([{ id: 'c', part: 'x', ts: 1, v: 3 }], OPTIONS))).code).toBe('UNSUPPORTED');

    const result = await table.disableMetadataTable();
    expect(result).toEqual({ clearedPartitions: ['files', 'record_index'], filesDeleted: 2 });
    expect(await storage.list('.hoodie/metadata', { recursive: true })).toEqual([]);
    const propsAfter = parseProperties(new TextDecoder().decode(await storage.read('.hoodie/hoodie.properties')));
    expect(Object.fromEntries(propsAfter)).toEqual({ ...Object.fromEntries(propsBefore), 'hoodie.table.metadata.partitions': '', 'hoodie.table.metadata.partitions.inflight': '' });
    // The checksum still validates (the table opens) and reads are unchanged; writes now go through.
    const reopened = await openTable(storage);
    expect(await rowsOf(reopened)).toEqual(rows);
    await reopened.upsert([{ id: 'c', part: 'x', ts: 1, v: 3 }], OPTIONS);
    expect(await rowsOf(reopened)).toEqual([...rows, 'x|c|1|3'].sort());
    // Running it again is harmless.
    expect(await reopened.disableMetadataTable()).toEqual({ clearedPartitions: [], filesDeleted: 0 });
  });

  it('refuses a table lakelet cannot maintain for another reason, changing nothing', async () => {
    const { storage } = await sampleTable('COPY_ON_WRITE');
    await setProperty(storage, 'hoodie.table.metadata.partitions', 'files');
    await setProperty(storage, 'hoodie.table.cdc.supplemental.logging.mode', 'FULL_IMAGES');
    await storage.write('.hoodie/metadata/.hoodie/hoodie.properties', new TextEncoder().encode('x\n'));
    const before = await treeSnapshot(storage);
    const err = await refusal((await openTable(storage)).disableMetadataTable());
    expect({ code: err.code, field: err.context.field }).toEqual({ code: 'UNSUPPORTED', field: 'hoodie.table.cdc.supplemental.logging.mode' });
    await expectTreeUnchanged(storage, before);
  });
});
