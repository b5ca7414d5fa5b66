// "Can lakelet maintain this v8/v9 table?": tables without a metadata table are written (the three Spark
// fixtures that have none, lakelet's own v8/v9 tables), and so are tables whose MDT lists only partitions lakelet
// maintains (data writes and the services); other MDT partitions, inflight
// ones, a `.hoodie/metadata` folder nothing lists, a non-native v9 table format, an unknown v8 merge strategy or payload, or a layout
// that does not fit the version are refused with UNSUPPORTED naming the property, before anything is written.
import { describe, expect, test } from 'vitest';
import { formatProperties, parseProperties } from '../../src/config/properties.js';
import { parseTableConfig } from '../../src/config/table-config.js';
import { tableSupportProblems } from '../../src/engine/table-support.js';
import { createTable, memoryStorage, openTable, validateTable, type Storage } from '../../src/index.js';
import { fixtureCopy, fixtureStorage } from '../helpers/fixtures.js';
import { V8_COW, V9_COW, V9_MOR, V9_ROLLBACK } from '../helpers/v9-timeline.js';

const PROPS = '.hoodie/hoodie.properties';
async function configOf(storage: Storage, edit: Record<string, string | undefined> = {}) {
  const props = parseProperties(new TextDecoder().decode(await storage.read(PROPS)));
  for (const [k, v] of Object.entries(edit)) if (v === undefined) props.delete(k); else props.set(k, v);
  return parseTableConfig(formatProperties(props, ['edited']));
}
const problems = async (storage: Storage, edit: Record<string, string | undefined> = {}, hasMdtFolder = false) =>
  tableSupportProblems(await configOf(storage, edit), hasMdtFolder, 'write').map((p) => p.property);

describe('v8/v9 tables lakelet maintains', () => {
  test.each([V9_COW, V9_MOR, V8_COW])('%s (no metadata table) has no problem for any operation', async (zip) => {
    const config = await configOf(await fixtureStorage(zip));
    for (const op of ['write', 'compact', 'clean', 'archive', 'savepoint', 'deleteSavepoint', 'restore', 'rollback'] as const) expect(tableSupportProblems(config, false, op), op).toEqual([]);
  });

  test.each([8, 9] as const)('a v%i table lakelet created has none', async (tableVersion) => {
    const storage = memoryStorage();
    await createTable(storage, { name: 't', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', tableVersion, metadataTable: false });
    expect(await problems(storage)).toEqual([]);
  });
});

describe('v8/v9 tables lakelet refuses', () => {
  test('a v9 table with a metadata table (Spark fixture): the services keep it in step and are allowed, validateTable clean after them', async () => {
    const storage = await fixtureCopy(V9_ROLLBACK);
    const table = await openTable(storage);
    await table.clean({ retainCommits: 1 });
    await table.compact({ force: true });
    expect(await validateTable(storage)).toMatchObject({ ok: true, problems: [] });
    const config = await configOf(storage);
    for (const op of ['write', 'compact', 'clean', 'archive', 'savepoint', 'deleteSavepoint', 'restore', 'rollback'] as const) expect(tableSupportProblems(config, true, op), op).toEqual([]);
  });

  test('metadata partitions, inflight ones, a metadata folder, a non-native v9 format, an unknown v8 strategy or payload', async () => {
    const v9 = await fixtureStorage(V9_COW);
    const v8 = await fixtureStorage(V8_COW);
    // Listed partitions lakelet maintains are written when the MDT folder exists; a listed MDT without its
    // folder, a partition lakelet does not maintain, or any MDT on a v6 table is refused.
    expect(await problems(v9, { 'hoodie.table.metadata.partitions': 'files,record_index' }, true)).toEqual([]);
    expect(await problems(v9, { 'hoodie.table.metadata.partitions': 'column_stats,files,partition_stats,record_index' }, true)).toEqual([]);
    expect(await problems(v9, { 'hoodie.table.metadata.partitions': 'files' })).toEqual(['.hoodie/metadata']);
    // A partition lakelet does not maintain is dropped by a write (so no problem for it), refused for a service.
    expect(await problems(v9, { 'hoodie.table.metadata.partitions': 'files,bloom_filters' }, true)).toEqual([]);
    expect(tableSupportProblems(await configOf(v9, { 'hoodie.table.metadata.partitions': 'files,secondary_index_x' }), true, 'clean').map((p) => p.property)).toEqual(['hoodie.table.metadata.partitions']);
    expect(await problems(v9, { 'hoodie.table.metadata.partitions': 'files', 'hoodie.table.version': '6', 'hoodie.timeline.layout.version': '1' }, true)).toContain('hoodie.table.metadata.partitions');
    expect(await problems(v9, { 'hoodie.table.metadata.partitions.inflight': 'record_index' })).toEqual(['hoodie.table.metadata.partitions.inflight']);
    expect(await problems(v9, {}, true)).toEqual(['.hoodie/metadata']);
    expect(await problems(v9, { 'hoodie.table.format': 'iceberg' })).toEqual(['hoodie.table.format']);
    expect(await problems(v8, { 'hoodie.record.merge.strategy.id': '1897ef5f-18bc-4557-939c-9d6a8afd1519' })).toEqual(['hoodie.record.merge.strategy.id']);
    expect(await problems(v8, { 'hoodie.compaction.payload.class': 'com.example.MyPayload' })).toEqual(['hoodie.compaction.payload.class']);
    expect(await problems(v9, { 'hoodie.record.merge.mode': 'CUSTOM' })).toEqual(['hoodie.record.merge.mode']);
  });

  test('a partitioned record index, or an MDT of another table version: a write is UNSUPPORTED naming the file, nothing written', async () => {
    const MDT_FIXTURE = 'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip';
    const partitioned = await fixtureCopy(MDT_FIXTURE);
    const defs = JSON.parse(new TextDecoder().decode(await partitioned.read('.hoodie/.index_defs/index.json')));
    defs.indexDefinitions.record_index.indexOptions.isPartitioned = 'true';
    await partitioned.write('.hoodie/.index_defs/index.json', new TextEncoder().encode(JSON.stringify(defs)));
    const before = (await partitioned.list('', { recursive: true })).map((f) => `${f.path}:${f.size}`).sort();
    await expect((await openTable(partitioned)).upsert([{ txn_id: 'x' }])).rejects.toMatchObject({ code: 'UNSUPPORTED', context: { field: '.hoodie/.index_defs/index.json' } });
    expect((await partitioned.list('', { recursive: true })).map((f) => `${f.path}:${f.size}`).sort()).toEqual(before);
    const other = await fixtureCopy(MDT_FIXTURE);
    const mdtProps = '.hoodie/metadata/.hoodie/hoodie.properties';
    const props = parseProperties(new TextDecoder().decode(await other.read(mdtProps)));
    props.set('hoodie.table.version', '8');
    await other.write(mdtProps, new TextEncoder().encode(formatProperties(props, ['edited'])));
    await expect((await openTable(other)).upsert([{ txn_id: 'x' }])).rejects.toMatchObject({ code: 'UNSUPPORTED', context: { field: mdtProps, value: '8' } });
  });
});
