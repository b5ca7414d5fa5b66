// The slice merge on log bytes with partial blocks (docs/partial-updates.md): IS_PARTIAL AVRO_DATA and
// PARQUET_DATA blocks (a partial SCHEMA header) merged column by column, and the header checks — an unknown key
// ordinal (even in a block that does not count), a non-boolean IS_PARTIAL, a partial block lakelet cannot merge —
// refused with UNSUPPORTED.
import { describe, expect, test } from 'vitest';
import { encodeLogBlock, type LogBlockHeader } from '../../src/format/log/block.js';
import { encodeAvroDataBlockContent } from '../../src/format/log/content.js';
import { writeBaseFile } from '../../src/format/parquet/write.js';
import { logVisibility, mergeSlice, type SliceLogFile } from '../../src/merge/slice-merge.js';
import type { RecordMergerOptions } from '../../src/merge/record-merger.js';
import { parseRecordSchema } from '../../src/schema/table-schema.js';
import { failure } from '../helpers/expect-error.js';

const t = (n: number): string => `2024010100000000${n}`;
const field = (name: string, type: unknown) => ({ name, type: ['null', type], default: null });
const full = { type: 'record', name: 'r', fields: [field('_hoodie_record_key', 'string'), field('ts', 'long'), field('v', 'string'), field('n', 'int')] };
const partialOf = (...names: string[]) => ({ ...full, fields: full.fields.filter((f) => f.name === '_hoodie_record_key' || names.includes(f.name)) });
const merge: RecordMergerOptions = { mode: 'EVENT_TIME_ORDERING', orderingFields: ['ts'], orderingKinds: [{ kind: 'bigint', scale: 0 }] };
const visibility = (completed: number[]) => logVisibility({ completedWrites: completed.map(t), timelineStart: t(1), asOf: undefined });
const log = (...blocks: Uint8Array[]): SliceLogFile[] => {
  const bytes = new Uint8Array(blocks.reduce((s, b) => s + b.length, 0));
  let at = 0;
  for (const b of blocks) bytes.set(b, (at += b.length) - b.length);
  return [{ path: 'p/.f-0_1.log.1_0-1-1', bytes }];
};
const avro = (n: number, schema: object, records: Record<string, unknown>[], extra: LogBlockHeader = {}) =>
  encodeLogBlock('AVRO_DATA', { INSTANT_TIME: t(n), SCHEMA: JSON.stringify(schema), ...extra }, encodeAvroDataBlockContent(schema, records));
const base = [[{ _hoodie_record_key: 'a', ts: 10n, v: 'a0', n: 1 }, { _hoodie_record_key: 'b', ts: 10n, v: 'b0', n: 2 }]];

describe('mergeSlice with partial blocks', () => {
  test('an IS_PARTIAL avro block keeps the base values of the columns it lacks; a block without the flag reads as full', async () => {
    const logs = log(
      avro(2, partialOf('ts', 'v'), [{ _hoodie_record_key: 'a', ts: 20n, v: 'a-partial' }], { IS_PARTIAL: 'true' }),
      avro(3, partialOf('ts', 'v'), [{ _hoodie_record_key: 'b', ts: 20n, v: 'b-not-flagged' }]),
    );
    const merged = await mergeSlice(base, { logs, visibility: visibility([2, 3]), merge, columns: undefined });
    expect(merged.rows).toEqual([
      { _hoodie_record_key: 'a', ts: 20n, v: 'a-partial', n: 1 },
      { _hoodie_record_key: 'b', ts: 20n, v: 'b-not-flagged' },
    ]);
  });

  test('an IS_PARTIAL parquet block merges the same way (its file holds only the partial columns)', async () => {
    const schema = partialOf('ts', 'n');
    const parquet = writeBaseFile([{ _hoodie_record_key: 'b', ts: 30n, n: 7 }], { schema: parseRecordSchema(schema, 'test'), bloomFilter: false });
    const block = encodeLogBlock('PARQUET_DATA', { INSTANT_TIME: t(2), SCHEMA: JSON.stringify(schema), IS_PARTIAL: 'true' }, parquet);
    const merged = await mergeSlice(base, { logs: log(block), visibility: visibility([2]), merge, columns: ['_hoodie_record_key', 'ts', 'v', 'n'] });
    expect(merged.rows).toEqual([
      { _hoodie_record_key: 'a', ts: 10n, v: 'a0', n: 1 },
      { _hoodie_record_key: 'b', ts: 30n, v: 'b0', n: 7 },
    ]);
  });

  test('a partial block of an uncommitted write does not count', async () => {
    const logs = log(avro(2, partialOf('ts', 'v'), [{ _hoodie_record_key: 'a', ts: 20n, v: 'pending' }], { IS_PARTIAL: 'true' }));
    const merged = await mergeSlice(base, { logs, visibility: visibility([]), merge, columns: undefined });
    expect(merged.rows).toEqual(base[0]);
  });
});

describe('mergeSlice refuses what it does not understand', () => {
  /** An avro block whose BLOCK_IDENTIFIER entry (the first header entry) is rewritten to key ordinal 9. */
  const unknownOrdinal = (n: number) => {
    const bytes = avro(n, full, [{ _hoodie_record_key: 'a', ts: 20n, v: 'x', n: 1 }], { BLOCK_IDENTIFIER: '1' });
    new DataView(bytes.buffer).setInt32(26, 9, false);
    return bytes;
  };

  test('an unknown header ordinal: UNSUPPORTED naming it, even in a block of a write that does not count', async () => {
    for (const completed of [[2], []]) {
      const err = await failure(mergeSlice(base, { logs: log(unknownOrdinal(2)), visibility: visibility(completed), merge, columns: undefined }));
      expect(err.code).toBe('UNSUPPORTED');
      expect(err.context).toMatchObject({ field: 'header key 9', path: 'p/.f-0_1.log.1_0-1-1', offset: 0 });
    }
  });

  test('IS_PARTIAL neither true nor false: UNSUPPORTED naming the value', async () => {
    const logs = log(avro(2, partialOf('ts', 'v'), [{ _hoodie_record_key: 'a', ts: 20n, v: 'x' }], { IS_PARTIAL: 'yes' }));
    const err = await failure(mergeSlice(base, { logs, visibility: visibility([2]), merge, columns: undefined }));
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.context).toMatchObject({ field: 'IS_PARTIAL', value: 'yes' });
  });

  test('a partial block in a table whose merge mode lakelet does not implement, or without the ordering field', async () => {
    const partial = log(avro(2, partialOf('ts', 'v'), [{ _hoodie_record_key: 'a', ts: 20n, v: 'x' }], { IS_PARTIAL: 'true' }));
    const custom = await failure(mergeSlice(base, { logs: partial, visibility: visibility([2]), merge: { ...merge, mode: 'CUSTOM' }, columns: undefined }));
    expect(custom.code).toBe('UNSUPPORTED');
    expect(custom.context).toMatchObject({ field: 'hoodie.record.merge.mode', value: 'CUSTOM' });
    const mode = await failure(mergeSlice(base, { logs: partial, visibility: visibility([2]), merge: { ...merge, partialUpdateMode: 'FILL_UNAVAILABLE' }, columns: undefined }));
    expect(mode.context).toMatchObject({ field: 'hoodie.table.partial.update.mode', value: 'FILL_UNAVAILABLE' });
    const noTs = log(avro(2, partialOf('v'), [{ _hoodie_record_key: 'a', v: 'x' }], { IS_PARTIAL: 'true' }));
    const missing = await failure(mergeSlice(base, { logs: noTs, visibility: visibility([2]), merge, columns: undefined }));
    expect(missing.context).toMatchObject({ field: 'ts', path: 'p/.f-0_1.log.1_0-1-1' });
    // The same blocks without IS_PARTIAL read as full records, whatever the merge mode.
    const unflagged = log(avro(2, partialOf('ts', 'v'), [{ _hoodie_record_key: 'a', ts: 20n, v: 'x' }]));
    expect((await mergeSlice(base, { logs: unflagged, visibility: visibility([2]), merge: { ...merge, mode: 'CUSTOM' }, columns: undefined })).rows).toHaveLength(2);
  });
});
