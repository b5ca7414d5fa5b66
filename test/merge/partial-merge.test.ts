// Partial records merged column by column (docs/partial-updates.md): the RecordMerger with partial blocks under
// event-time and commit-time ordering — over the base, over a full log record, over a partial one (the log is
// merged first, then the base), a lower ordering value, deletes before a partial record, keys with no older
// version — and the checks that refuse a partial block lakelet cannot merge as Hudi does.
import { describe, expect, it } from 'vitest';
import { checkPartialMergeable, mergeVersions } from '../../src/merge/partial-merge.js';
import { RecordMerger, type RecordMergerOptions } from '../../src/merge/record-merger.js';
import { thrown } from '../helpers/expect-error.js';

type Row = Record<string, unknown>;
const K = '_hoodie_record_key';
const eventTime: RecordMergerOptions = { mode: 'EVENT_TIME_ORDERING', orderingFields: ['ts'], orderingKinds: [{ kind: 'bigint', scale: 0 }] };
const commitTime: RecordMergerOptions = { ...eventTime, mode: 'COMMIT_TIME_ORDERING' };
const fields = (...names: string[]): ReadonlySet<string> => new Set([K, ...names]);
const base = (): Row => ({ [K]: 'k1', key: 'k1', ts: 100n, value: 'v1', num: 1, note: 'n1' });
const rowsOf = (m: RecordMerger): Row[] => [...m.rows()];

describe('partial records under event-time ordering', () => {
  it('over the base: the carried columns replace, the others keep the base values (the issue example)', () => {
    const m = new RecordMerger(eventTime);
    m.addBase([base()]);
    m.addPartialRecords([{ [K]: 'k1', ts: 100n, value: 'v1_partial' }], fields('ts', 'value'));
    expect(rowsOf(m)).toEqual([{ [K]: 'k1', key: 'k1', ts: 100n, value: 'v1_partial', num: 1, note: 'n1' }]);
  });

  it('over an earlier full log record: the columns it lacks come from that record, not the base', () => {
    const m = new RecordMerger(eventTime);
    m.addBase([base()]);
    m.addRecords([{ [K]: 'k1', key: 'k1', ts: 200n, value: 'v2', num: 2, note: 'n2' }]);
    m.addPartialRecords([{ [K]: 'k1', ts: 300n, value: 'v3' }], fields('ts', 'value'));
    expect(rowsOf(m)).toEqual([{ [K]: 'k1', key: 'k1', ts: 300n, value: 'v3', num: 2, note: 'n2' }]);
  });

  it('over a partial record: the two are merged (union of columns, the newer wins overlaps), then onto the base', () => {
    const m = new RecordMerger(eventTime);
    m.addBase([base()]);
    m.addPartialRecords([{ [K]: 'k1', ts: 200n, value: 'v2' }], fields('ts', 'value'));
    m.addPartialRecords([{ [K]: 'k1', ts: 300n, num: 3 }], fields('ts', 'num'));
    expect(rowsOf(m)).toEqual([{ [K]: 'k1', key: 'k1', ts: 300n, value: 'v2', num: 3, note: 'n1' }]);
  });

  it('with a lower ordering value than the base, it is dropped whole (the base is full)', () => {
    const m = new RecordMerger(eventTime);
    m.addBase([base()]);
    m.addPartialRecords([{ [K]: 'k1', ts: 50n, value: 'late', num: 9 }], fields('ts', 'value', 'num'));
    expect(rowsOf(m)).toEqual([base()]);
  });

  it('with a lower ordering value than an earlier partial record, it only fills the columns the winner lacks', () => {
    // The log merges first: p1 (ts 300) beats p2 (ts 200), so p2 gives only `num`; then the result beats the
    // base (300 > 100) and takes `note` from it. Merging base-first instead would keep num = 1.
    const m = new RecordMerger(eventTime);
    m.addBase([base()]);
    m.addPartialRecords([{ [K]: 'k1', ts: 300n, value: 'v3' }], fields('ts', 'value'));
    m.addPartialRecords([{ [K]: 'k1', ts: 200n, value: 'v2', num: 2 }], fields('ts', 'value', 'num'));
    expect(rowsOf(m)).toEqual([{ [K]: 'k1', key: 'k1', ts: 300n, value: 'v3', num: 2, note: 'n1' }]);
  });

  it('on a tie with the base, the partial (later) record wins its columns', () => {
    const m = new RecordMerger(eventTime);
    m.addBase([base()]);
    m.addPartialRecords([{ [K]: 'k1', ts: 100n, num: 7 }], fields('ts', 'num'));
    expect(rowsOf(m)).toEqual([{ ...base(), num: 7 }]);
  });

  it('for a key with no older version, the record stands alone: it has only the columns it carries', () => {
    const m = new RecordMerger(eventTime);
    m.addBase([base()]);
    m.addPartialRecords([{ [K]: 'k9', ts: 5n, value: 'fresh' }], fields('ts', 'value'));
    expect(rowsOf(m)).toEqual([base(), { [K]: 'k9', ts: 5n, value: 'fresh' }]);
  });

  it('after a natural-order delete in the log: the delete is merged away by the later record, which then meets the base', () => {
    // Hudi: deltaMerge(delete, partial) keeps the partial record (a commit-time-ordering delete loses to any
    // later record); the final merge with the base then fills the partial record's missing columns from it.
    const m = new RecordMerger(eventTime);
    m.addBase([base(), { ...base(), [K]: 'k2', key: 'k2' }]);
    m.addDeletes([{ recordKey: 'k1', orderingVal: 0 }, { recordKey: 'k2', orderingVal: 0 }, { recordKey: 'k3', orderingVal: 0 }]);
    m.addPartialRecords([
      { [K]: 'k1', ts: 200n, value: 'after delete' },
      { [K]: 'k2', ts: 50n, value: 'older than base' },
      { [K]: 'k3', ts: 1n, value: 'no base' },
    ], fields('ts', 'value'));
    expect(rowsOf(m)).toEqual([
      { ...base(), ts: 200n, value: 'after delete' },
      { ...base(), [K]: 'k2', key: 'k2' },
      { [K]: 'k3', ts: 1n, value: 'no base' },
    ]);
  });

  it('an ordered delete between them: the greater ordering value wins, whole', () => {
    const m = new RecordMerger(eventTime);
    m.addBase([base(), { ...base(), [K]: 'k2', key: 'k2' }]);
    m.addPartialRecords([{ [K]: 'k1', ts: 200n, value: 'p1' }, { [K]: 'k2', ts: 200n, value: 'p2' }], fields('ts', 'value'));
    m.addDeletes([{ recordKey: 'k1', orderingVal: 150n }, { recordKey: 'k2', orderingVal: 250n }]);
    expect(rowsOf(m)).toEqual([{ ...base(), ts: 200n, value: 'p1' }]);
  });

  it('a partial soft delete (_hoodie_is_deleted in the partial schema) removes the key when it wins', () => {
    const m = new RecordMerger(eventTime);
    m.addBase([base()]);
    m.addPartialRecords([{ [K]: 'k1', ts: 200n, _hoodie_is_deleted: true }], fields('ts', '_hoodie_is_deleted'));
    expect(rowsOf(m)).toEqual([]);
  });

  it('every copy of a key the base holds twice gets the partial columns', () => {
    const m = new RecordMerger(eventTime);
    m.addBase([base(), { ...base(), note: 'copy' }]);
    m.addPartialRecords([{ [K]: 'k1', ts: 100n, value: 'p' }], fields('ts', 'value'));
    expect(rowsOf(m)).toEqual([{ ...base(), value: 'p' }, { ...base(), note: 'copy', value: 'p' }]);
  });
});

describe('partial records under commit-time ordering', () => {
  it('the later record wins its columns whatever its ordering value; deletes win by arrival', () => {
    const m = new RecordMerger(commitTime);
    m.addBase([base(), { ...base(), [K]: 'k2', key: 'k2' }]);
    m.addPartialRecords([{ [K]: 'k1', ts: 5n, value: 'later, smaller ts' }, { [K]: 'k2', ts: 5n, value: 'then deleted' }], fields('ts', 'value'));
    m.addDeletes([{ recordKey: 'k2', orderingVal: 1n }]);
    m.addPartialRecords([{ [K]: 'k1', num: 2 }], fields('num'));
    expect(rowsOf(m)).toEqual([{ ...base(), ts: 5n, value: 'later, smaller ts', num: 2 }]);
  });

  it('does not need the ordering field in the partial schema', () => {
    expect(() => checkPartialMergeable(commitTime, fields('value'), {})).not.toThrow();
  });
});

describe('mergeVersions', () => {
  it('a full winner is returned as it is; a partial loser adds nothing to it', () => {
    const full = { row: { [K]: 'k', a: 1, b: 2 }, deleteOrdering: undefined };
    const partial = { row: { [K]: 'k', a: 9 }, deleteOrdering: undefined, fields: fields('a') };
    expect(mergeVersions(partial, full, false)).toEqual({ row: { [K]: 'k', a: 1, b: 2 }, deleteOrdering: undefined });
    expect(mergeVersions(full, partial, true)).toEqual({ row: { [K]: 'k', a: 1, b: 2 }, deleteOrdering: undefined });
    const merged = mergeVersions(full, partial, false);
    expect(merged.row).toEqual({ [K]: 'k', a: 9, b: 2 });
    expect(merged.fields).toBeUndefined();
  });

  it('two partial versions merge into a partial version over both column sets', () => {
    const p1 = { row: { [K]: 'k', a: 1 }, deleteOrdering: undefined, fields: fields('a') };
    const p2 = { row: { [K]: 'k', b: 2 }, deleteOrdering: undefined, fields: fields('b') };
    const merged = mergeVersions(p1, p2, false);
    expect(merged.row).toEqual({ [K]: 'k', a: 1, b: 2 });
    expect([...(merged.fields ?? [])].sort()).toEqual([K, 'a', 'b'].sort());
  });
});

describe('checkPartialMergeable', () => {
  const refused = (options: RecordMergerOptions, f: ReadonlySet<string>) => {
    const err = thrown(() => checkPartialMergeable(options, f, { path: 'p/.f_1.log.1_0-1-1', offset: 0 }));
    expect(err.code, err.message).toBe('UNSUPPORTED');
    return err;
  };

  it('a custom merge mode is refused, naming hoodie.record.merge.mode', () => {
    const err = refused({ ...eventTime, mode: 'CUSTOM' }, fields('ts'));
    expect(err.context).toMatchObject({ field: 'hoodie.record.merge.mode', value: 'CUSTOM', path: 'p/.f_1.log.1_0-1-1' });
  });

  it('a partial update mode other than KEEP_VALUES is refused, naming it', () => {
    const err = refused({ ...eventTime, partialUpdateMode: 'ignore_defaults' }, fields('ts'));
    expect(err.context).toMatchObject({ field: 'hoodie.table.partial.update.mode', value: 'IGNORE_DEFAULTS' });
    for (const ok of [undefined, '', 'NONE', 'KEEP_VALUES']) expect(() => checkPartialMergeable({ ...eventTime, partialUpdateMode: ok }, fields('ts'), {})).not.toThrow();
  });

  it('a partial schema without the ordering field (event time) or the record key is refused, naming the field', () => {
    expect(refused(eventTime, fields('value')).context).toMatchObject({ field: 'ts' });
    expect(refused(commitTime, new Set(['ts', 'value'])).context).toMatchObject({ field: K });
  });
});
