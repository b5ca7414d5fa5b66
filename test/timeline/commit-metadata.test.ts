// Commit metadata: the core-test-data v6 JSON commit and v8 Avro deltacommit decoded into write stats,
// replacecommit fields, empty files, and bad bytes or structurally invalid shapes → CORRUPT_FILE naming the
// path (hudi-format.md §3.4).
import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { LakeletError } from '../../src/errors.js';
import { writeAvroContainer } from '../../src/format/avro/container.js';
import { decodeInstantFile, parseCommitMetadata } from '../../src/timeline/commit-metadata.js';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(`${inject('FIXTURES_DIR')}/core-test-data/commit_metadata/${name}`));
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function corrupt(bytes: Uint8Array, path: string): LakeletError {
  try {
    parseCommitMetadata(bytes, path);
  } catch (err) {
    expect(err).toBeInstanceOf(LakeletError);
    return err as LakeletError;
  }
  throw new Error('expected CORRUPT_FILE');
}

describe('v6 JSON commit (core-test-data/commit_metadata/v6_commit.json)', () => {
  const m = parseCommitMetadata(fixture('v6_commit.json'), '.hoodie/20240418173551906.commit');

  it('has one write stat in the "" partition with every field lakelet uses', () => {
    expect(Object.keys(m.partitionToWriteStats)).toEqual(['']);
    const [stat] = m.partitionToWriteStats[''] ?? [];
    expect(stat).toMatchObject({
      fileId: 'a079bdb3-731c-4894-b855-abfcd6921007-0',
      path: 'a079bdb3-731c-4894-b855-abfcd6921007-0_0-203-274_20240418173551906.parquet',
      partitionPath: '',
      prevCommit: '20240418173550988',
      numWrites: 4,
      numDeletes: 0,
      numUpdateWrites: 1,
      numInserts: 1,
      totalWriteBytes: 441520,
      fileSizeInBytes: 441520,
      logFiles: [],
      baseFile: undefined,
    });
    expect(stat?.raw.runtimeStats).toEqual({ totalScanTime: 0, totalUpsertTime: 105, totalCreateTime: 0 });
  });

  it('has operationType UPSERT, not compacted, no replaced groups, and the writer schema', () => {
    expect(m.operationType).toBe('UPSERT');
    expect(m.compacted).toBe(false);
    expect(m.partitionToReplaceFileIds).toEqual({});
    const schema = JSON.parse(m.extraMetadata.schema ?? 'null') as { type: string; fields: { name: string }[] };
    expect(schema.type).toBe('record');
    expect(schema.fields.map((f) => f.name).slice(0, 3)).toEqual(['id', 'name', 'isActive']);
    expect(schema.fields).toHaveLength(16);
  });
});

describe('v8 Avro deltacommit (core-test-data/commit_metadata/v8_deltacommit.avro)', () => {
  const bytes = fixture('v8_deltacommit.avro');
  const m = parseCommitMetadata(bytes, '.hoodie/timeline/x.deltacommit');

  it('is an Avro object container', () => {
    expect([...bytes.subarray(0, 4)]).toEqual([0x4f, 0x62, 0x6a, 0x01]);
  });

  it('has one new base file in each of three city partitions', () => {
    expect(Object.keys(m.partitionToWriteStats).sort()).toEqual(['city=chennai', 'city=san_francisco', 'city=sao_paulo']);
    const sf = m.partitionToWriteStats['city=san_francisco']?.[0];
    expect(sf).toMatchObject({
      fileId: '87a4c895-1f59-4518-972f-27f49a92c7b4-0',
      path: 'city=san_francisco/87a4c895-1f59-4518-972f-27f49a92c7b4-0_0-252-389_20250713011913147.parquet',
      partitionPath: 'city=san_francisco',
      prevCommit: 'null',
      numWrites: 4,
      numInserts: 4,
      numUpdateWrites: 0,
      numDeletes: 0,
      totalWriteBytes: 436413,
      fileSizeInBytes: 436413,
      logFiles: [],
    });
    expect(m.partitionToWriteStats['city=sao_paulo']?.[0]).toMatchObject({ numWrites: 2, fileSizeInBytes: 436216 });
    expect(m.partitionToWriteStats['city=chennai']?.[0]).toMatchObject({ numWrites: 2, fileSizeInBytes: 436193 });
  });

  it('keeps the raw Avro fields of each write stat, in schema order', () => {
    const raw = Object.keys(m.partitionToWriteStats['city=chennai']?.[0]?.raw ?? {});
    expect(raw.slice(0, 4)).toEqual(['fileId', 'path', 'prevCommit', 'numWrites']);
    expect(raw).toContain('logVersion');
    expect(raw).toContain('runtimeStats');
  });

  it('has operationType UPSERT and the writer schema in extraMetadata', () => {
    expect(m.operationType).toBe('UPSERT');
    expect(m.compacted).toBe(false);
    const schema = JSON.parse(m.extraMetadata.schema ?? 'null') as { fields: { name: string }[] };
    expect(schema.fields.map((f) => f.name)).toContain('fare');
  });
});

describe('parseCommitMetadata on synthetic files', () => {
  it('reads a replacecommit with replaced file ids and a compaction flag', () => {
    const json = JSON.stringify({
      partitionToWriteStats: { '10': [{ fileId: 'new-0', path: '10/new-0_0-1-2_20240707001303088.parquet', numWrites: '3', totalWriteBytes: 12 }] },
      partitionToReplaceFileIds: { '10': ['old-0', 'old-1'], '20': ['old-2'] },
      compacted: true,
      extraMetadata: { schema: '{}', ignored: 5 },
      operationType: 'INSERT_OVERWRITE_TABLE',
    });
    const m = parseCommitMetadata(enc(json), 'r.replacecommit');
    expect(m.partitionToReplaceFileIds).toEqual({ '10': ['old-0', 'old-1'], '20': ['old-2'] });
    expect(m.compacted).toBe(true);
    expect(m.operationType).toBe('INSERT_OVERWRITE_TABLE');
    expect(m.extraMetadata).toEqual({ schema: '{}' });
    expect(m.partitionToWriteStats['10']?.[0]).toMatchObject({ partitionPath: '10', numWrites: 3, numDeletes: 0, totalWriteBytes: 12, prevCommit: undefined });
  });

  it('reads a MOR log write stat (logFiles, baseFile)', () => {
    const json = JSON.stringify({
      partitionToWriteStats: { '': [{ fileId: 'f-0', path: '.f-0_20250331030642808.log.1_0-26-85', baseFile: 'f-0_0-1-2_20250331030642808.parquet', logFiles: ['.f-0_20250331030642808.log.1_0-26-85'], numUpdateWrites: 1 }] },
    });
    const [s] = parseCommitMetadata(enc(json), 'd.deltacommit').partitionToWriteStats[''] ?? [];
    expect(s).toMatchObject({ baseFile: 'f-0_0-1-2_20250331030642808.parquet', logFiles: ['.f-0_20250331030642808.log.1_0-26-85'], numUpdateWrites: 1 });
  });

  it('accepts empty write stats and an empty file', () => {
    expect(parseCommitMetadata(enc('{"partitionToWriteStats":{},"compacted":false}'), 'a').partitionToWriteStats).toEqual({});
    const empty = parseCommitMetadata(new Uint8Array(0), 'x.commit.requested');
    expect(empty).toEqual({ partitionToWriteStats: {}, partitionToReplaceFileIds: {}, compacted: false, extraMetadata: {}, operationType: undefined });
  });

  it('reads an Avro container it wrote itself (bigint counters become numbers)', () => {
    const schema = {
      type: 'record', name: 'HoodieCommitMetadata', fields: [
        { name: 'partitionToWriteStats', type: { type: 'map', values: { type: 'array', items: { type: 'record', name: 'HoodieWriteStat', fields: [
          { name: 'fileId', type: 'string' }, { name: 'numWrites', type: 'long' },
        ] } } } },
        { name: 'operationType', type: ['null', 'string'] },
      ],
    };
    const bytes = writeAvroContainer(schema, [{ partitionToWriteStats: { p: [{ fileId: 'g-0', numWrites: 9n }] }, operationType: 'INSERT' }]);
    const m = parseCommitMetadata(bytes, 'c.commit');
    expect(m.operationType).toBe('INSERT');
    expect(m.partitionToWriteStats.p?.[0]).toMatchObject({ fileId: 'g-0', numWrites: 9, partitionPath: 'p' });
  });

  it.each([
    ['not JSON', enc('definitely not json')],
    ['truncated JSON', enc('{"partitionToWriteStats": {')],
    ['binary junk', new Uint8Array([0xff, 0x00, 0x13, 0x37, 0x42])],
  ])('%s → CORRUPT_FILE naming the path', (_label, bytes) => {
    const err = corrupt(bytes, '.hoodie/20240101000000000.commit');
    expect(err.code).toBe('CORRUPT_FILE');
    expect(err.context.path).toBe('.hoodie/20240101000000000.commit');
    expect(err.message).toContain('.hoodie/20240101000000000.commit');
  });

  it('a truncated Avro container → CORRUPT_FILE naming the path', () => {
    const bytes = fixture('v8_deltacommit.avro');
    for (const cut of [6, 40, Math.floor(bytes.length / 2), bytes.length - 3]) {
      const err = corrupt(bytes.subarray(0, cut), '.hoodie/timeline/t.deltacommit');
      expect(err.code).toBe('CORRUPT_FILE');
      expect(err.context.path).toBe('.hoodie/timeline/t.deltacommit');
    }
  });

  it('write stats that are not a list → CORRUPT_FILE', () => {
    const err = corrupt(enc('{"partitionToWriteStats":{"p":{"fileId":"x"}}}'), 'bad.commit');
    expect(err.code).toBe('CORRUPT_FILE');
    expect(err.message).toContain('"p"');
  });
});

describe('structurally invalid commit metadata → CORRUPT_FILE naming the file and the field', () => {
  const stat = { fileId: 'f-0', path: 'p/f-0_0-1-2_20240101000000000.parquet', numWrites: 1 };
  const withStat = (s: unknown) => JSON.stringify({ partitionToWriteStats: { p: [s] } });
  it.each([
    ['partitionToWriteStats is a string', JSON.stringify({ partitionToWriteStats: 'x' }), 'partitionToWriteStats'],
    ['partitionToWriteStats is a list', JSON.stringify({ partitionToWriteStats: [[stat]] }), 'partitionToWriteStats'],
    ['partitionToWriteStats is a number', JSON.stringify({ partitionToWriteStats: 5 }), 'partitionToWriteStats'],
    ['a partition maps to a string', JSON.stringify({ partitionToWriteStats: { p: 'x' } }), 'partitionToWriteStats["p"]'],
    ['a stat is a list', withStat([stat]), 'partitionToWriteStats["p"][0]'],
    ['a stat is null', withStat(null), 'partitionToWriteStats["p"][0]'],
    ['a stat is a string', withStat('f-0'), 'partitionToWriteStats["p"][0]'],
    ['a stat has no fileId', withStat({ path: stat.path }), 'fileId'],
    ['a stat fileId is a number', withStat({ ...stat, fileId: 7 }), 'fileId'],
    ['a stat path is a number', withStat({ ...stat, path: 12 }), '.path'],
    ['a stat path is an object', withStat({ ...stat, path: { a: 1 } }), '.path'],
    ['a stat partitionPath is a list', withStat({ ...stat, partitionPath: ['p'] }), '.partitionPath'],
    ['a counter is not a number', withStat({ ...stat, numWrites: 'many' }), '.numWrites'],
    ['a counter is an object', withStat({ ...stat, numInserts: {} }), '.numInserts'],
    ['logFiles is a string', withStat({ ...stat, logFiles: '.f-0_1.log.1_0-0-0' }), '.logFiles'],
    ['logFiles holds a number', withStat({ ...stat, logFiles: [3] }), '.logFiles'],
    ['partitionToReplaceFileIds is a list', JSON.stringify({ partitionToWriteStats: {}, partitionToReplaceFileIds: ['a'] }), 'partitionToReplaceFileIds'],
    ['a replaced id is a number', JSON.stringify({ partitionToReplaceFileIds: { '20': ['old-2', 7] } }), 'partitionToReplaceFileIds["20"]'],
    ['replaced ids are a string', JSON.stringify({ partitionToReplaceFileIds: { '20': 'old-2' } }), 'partitionToReplaceFileIds["20"]'],
    ['extraMetadata is a string', JSON.stringify({ partitionToWriteStats: {}, extraMetadata: 'schema' }), 'extraMetadata'],
    ['compacted is a string', JSON.stringify({ partitionToWriteStats: {}, compacted: 'yes' }), 'compacted'],
    ['operationType is a number', JSON.stringify({ partitionToWriteStats: {}, operationType: 3 }), 'operationType'],
    ['the file is a JSON list', '[{"partitionToWriteStats":{}}]', 'expected an object'],
    ['the file is a JSON string', '"partitionToWriteStats"', 'expected an object'],
    ['the file is JSON null', 'null', 'expected an object'],
  ])('%s', (_label, json, field) => {
    const err = corrupt(enc(json), '.hoodie/20240101000000000.commit');
    expect(err.code).toBe('CORRUPT_FILE');
    expect(err.context.path).toBe('.hoodie/20240101000000000.commit');
    expect(err.message).toContain('.hoodie/20240101000000000.commit');
    expect(err.message).toContain(field);
  });

  it('the same rules hold for Avro-decoded (archived / layout 2) metadata', () => {
    const schema = { type: 'record', name: 'HoodieCommitMetadata', fields: [{ name: 'partitionToWriteStats', type: { type: 'map', values: { type: 'array', items: 'string' } } }] };
    const bytes = writeAvroContainer(schema, [{ partitionToWriteStats: { p: ['not-a-stat'] } }]);
    const err = corrupt(bytes, '.hoodie/timeline/t.commit');
    expect(err.code).toBe('CORRUPT_FILE');
    expect(err.message).toContain('partitionToWriteStats["p"][0]');
  });

  it('null fields mean none; numeric strings and nulls inside a stat are accepted', () => {
    const m = parseCommitMetadata(enc(JSON.stringify({ partitionToWriteStats: { p: [{ fileId: 'f-0', path: null, numWrites: '4', prevCommit: null, logFiles: null, baseFile: null }] }, partitionToReplaceFileIds: null, extraMetadata: null, compacted: null, operationType: null })), 'c.commit');
    expect(m.partitionToWriteStats.p?.[0]).toMatchObject({ fileId: 'f-0', path: undefined, numWrites: 4, prevCommit: undefined, logFiles: [], baseFile: undefined, partitionPath: 'p' });
    expect(m).toMatchObject({ partitionToReplaceFileIds: {}, extraMetadata: {}, compacted: false, operationType: undefined });
  });
});

describe('decodeInstantFile', () => {
  it('decodes JSON, Avro and empty files to plain objects', () => {
    expect(decodeInstantFile(enc('{"a":1}'), 'x')).toEqual({ a: 1 });
    expect(decodeInstantFile(new Uint8Array(0), 'x')).toEqual({});
    expect(Object.keys(decodeInstantFile(fixture('v8_deltacommit.avro'), 'x'))).toContain('partitionToWriteStats');
  });
  it('a JSON value that is not an object decodes to {}', () => {
    expect(decodeInstantFile(enc('[1,2]'), 'x')).toEqual({});
    expect(decodeInstantFile(enc('null'), 'x')).toEqual({});
  });
});
